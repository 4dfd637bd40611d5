/**
 * A select of another entity's records that sends the record's NAME (`namesOf`): Add Student's
 * class, whose `className` carries a class name (api-contract §3.11).
 */
import { nameOptions } from '../../app/records';
import { entityByName } from '../../contract/entities';
import { useLiveQuery } from '../live-query';
import { SelectField } from './SelectField';
import type { FieldProps } from './types';

export function NameSelectField(props: FieldProps) {
  const source = props.spec.namesOf ?? '';
  const options = useLiveQuery(() => nameOptions(entityByName(source)), [source]) ?? [];
  const value = String(props.value);
  const shown =
    value === '' || options.some((o) => o.value === value) ? options : [{ value, label: value }, ...options];
  return <SelectField {...props} options={shown} />;
}
