/**
 * The location levels of a form (spec §4): choosing a country offers its states, choosing a
 * state its cities, and the form clears the levels below when one changes (their `dependsOn`).
 * Values are the legacy ones: the country's ISO2 code, the state's code, the city's name.
 * Offline, when a state's cities are not on the device, the city is typed instead of chosen,
 * so the form is never blocked.
 */
import type { Option } from '../../app/records';
import { useCities, useCountries, useStates } from './location-data';
import { SelectField } from './SelectField';
import { TextField } from './TextField';
import type { FieldProps } from './types';

/** The stored value stays choosable even when the list does not have it (a typed city). */
function withCurrent(options: Option[], value: string): Option[] {
  return value === '' || options.some((o) => o.value === value)
    ? options
    : [{ value, label: value }, ...options];
}

function CountryField(props: FieldProps) {
  const countries = useCountries();
  const options = countries.map((c) => ({ value: c.iso2, label: c.name }));
  return <SelectField {...props} options={withCurrent(options, String(props.value))} />;
}

function StateField({ country, ...props }: FieldProps & { country: string }) {
  const states = useStates(country);
  const options = states.map((s) => ({ value: s.iso2, label: s.name }));
  return <SelectField {...props} options={withCurrent(options, String(props.value))} />;
}

const TYPE_THE_CITY = 'The city list is not on this device yet: type the city.';

function CityField({ country, state, ...props }: FieldProps & { country: string; state: string }) {
  const cities = useCities(country, state);
  if (cities === null) return <TextField {...props} spec={{ ...props.spec, hint: TYPE_THE_CITY }} />;
  const options = (cities ?? []).map((c) => ({ value: c.name, label: c.name }));
  return <SelectField {...props} options={withCurrent(options, String(props.value))} />;
}

export function LocationField(props: FieldProps & { values: Readonly<Record<string, unknown>> }) {
  const { values, ...field } = props;
  const country = String(values.country ?? '');
  const state = String(values.state ?? '');
  switch (field.spec.location) {
    case 'country':
      return <CountryField {...field} />;
    case 'state':
      return <StateField {...field} country={country} />;
    default:
      return <CityField {...field} country={country} state={state} />;
  }
}
