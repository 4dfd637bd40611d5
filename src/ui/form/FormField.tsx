/**
 * One form field's control, chosen by what the description says of it: a parent or a choice
 * as a select, a file, a location level, a name of another entity's record, rich text (its
 * editor loaded on demand), or a text input.
 */
import { lazy, Suspense } from 'react';
import type { EntityDescription } from '../../contract/entity';
import type { Option } from '../../db/reads/parent-options';
import type { useContentImages } from '../extensions-data';
import { FileField } from '../fields/FileField';
import { LocationField } from '../fields/LocationField';
import { NameSelectField } from '../fields/NameSelectField';
import { SelectField } from '../fields/SelectField';
import { TextField } from '../fields/TextField';
import type { FieldProps } from '../fields/types';
import { type FormValues, locationOf } from './form-values';

const RichTextField = lazy(() => import('../fields/RichTextField'));

export function FormField({
  entity,
  props,
  values,
  options,
  images,
}: {
  entity: EntityDescription;
  props: FieldProps;
  /** Every value of the form (a location level reads the levels above it). */
  values: FormValues;
  /** A parent select's options. */
  options: readonly Option[];
  images: ReturnType<typeof useContentImages>;
}) {
  const { spec } = props;
  if (spec.kind === 'ref') return <SelectField {...props} options={options} />;
  if (spec.kind === 'choice') return <SelectField {...props} options={spec.choices ?? []} />;
  if (spec.kind === 'file') return <FileField {...props} />;
  if (spec.location) return <LocationField {...props} values={locationOf(entity, values)} />;
  if (spec.namesOf) return <NameSelectField {...props} />;
  if (spec.kind === 'richtext') {
    return (
      <Suspense fallback={<p className="muted">Loading editor…</p>}>
        <RichTextField {...props} {...images} />
      </Suspense>
    );
  }
  return <TextField {...props} />;
}
