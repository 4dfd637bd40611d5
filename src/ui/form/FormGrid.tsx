import type { EntityDescription, Op } from '../../contract/entity';
import { isRequired } from '../../contract/validation';
import type { Option } from '../../db/reads/parent-options';
import type { useContentImages } from '../extensions-data';
import type { FormValue } from '../fields/types';
import { FormField } from './FormField';
import { type FormValues, originalNameOf } from './form-values';

/** The form's fields shown now, each with its value, its options and its problem. */
export function FormGrid({
  entity,
  op,
  shown,
  values,
  options,
  images,
  errorOf,
  warnings,
  onChange,
}: {
  entity: EntityDescription;
  op: Op;
  shown: readonly string[];
  values: FormValues;
  /** Parent selects' options, by field. */
  options: Record<string, Option[]>;
  images: ReturnType<typeof useContentImages>;
  errorOf: (name: string) => string | undefined;
  /** By field, what to know before saving (a value already used). */
  warnings: Readonly<Record<string, string>>;
  onChange: (name: string, value: FormValue) => void;
}) {
  return (
    <div className="form-grid">
      {shown.map((name) => (
        <FormField
          key={name}
          entity={entity}
          values={values}
          options={options[name] ?? []}
          images={images}
          props={{
            name,
            spec: entity.fields[name],
            value: values[name] ?? '',
            onChange: (v) => onChange(name, v),
            required: isRequired(entity.fields[name], op),
            mode: op,
            error: errorOf(name),
            warning: warnings[name],
            originalName: originalNameOf(values, name),
          }}
        />
      ))}
    </div>
  );
}
