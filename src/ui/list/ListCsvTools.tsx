/**
 * A list's CSV tools in its header: "Import" where the entity declares an import,
 * and "Export CSV", which writes the list's rows under its current search, filter and sort,
 * every page, in the columns the import reads back (from the device's rows: offline too).
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { canImport } from '../../contract/csv/csv-columns';
import type { EntityDescription } from '../../contract/entity';
import type { PageQuery } from '../../db/queries';
import { downloadText } from '../download';
import { useMayChange } from '../may-change';
import { useNotify } from '../notices';

export function ListCsvTools({ entity, query }: { entity: EntityDescription; query: PageQuery }) {
  const [exporting, setExporting] = useState(false);
  const notify = useNotify();
  const may = useMayChange(entity);
  const exportList = async () => {
    setExporting(true);
    try {
      const { exportFile } = await import('../../app/csv');
      downloadText(`${entity.table}.csv`, await exportFile(entity, query));
    } catch (error) {
      console.error('Export failed:', error);
      notify('error', 'Export failed');
    } finally {
      setExporting(false);
    }
  };
  return (
    <span className="list-csv-tools">
      {may && canImport(entity) && entity.routes.import && (
        <Link to={entity.routes.import} className="button button-light">
          Import
        </Link>
      )}{' '}
      <button
        type="button"
        className="button button-light"
        disabled={exporting}
        onClick={() => void exportList()}
      >
        {exporting ? 'Exporting…' : 'Export CSV'}
      </button>
    </span>
  );
}
