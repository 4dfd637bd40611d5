/**
 * The words of import and export. The spec has none of its own: plain, short, in
 * the tone of its notices ('Failed to add school').
 */
export const csvMessages = {
  unknownId: (one: string, id: string) => `No ${one} with ID ${id} on this device`,
  parentNotFound: (label: string, value: string) => `${label} "${value}" not found`,
  parentAmbiguous: (label: string, value: string) =>
    `Several records are named "${value}": give the ${label.toLowerCase()}'s ID instead`,
  countryNotFound: (value: string) => `Country "${value}" not found`,
  stateNotFound: (value: string, country: string) => `State "${value}" not found in ${country}`,
  status: (label: string) => `${label} must be Enabled or Disabled`,
  repeats: (label: string, line: number) => `${label} repeats line ${line}`,
  noColumns: 'The file has no header row',
  noRows: 'The file has no rows',
  unreadable: 'The file could not be read as CSV',
} as const;
