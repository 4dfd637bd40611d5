import type { EntityDescription } from '../../contract/entity';

/**
 * The bar's action buttons, those the entity has: Enable / Disable selected (a status toggle),
 * Assign / Remove the target's records (a set relation), Delete selected.
 */
export function BulkActions({
  entity,
  target,
  hasStatus,
  disabled,
  onStatus,
  onChoose,
  onDelete,
}: {
  entity: EntityDescription;
  /** The entity of the set relation's records (books), when it has one. */
  target: EntityDescription | null;
  hasStatus: boolean;
  disabled: boolean;
  onStatus: (value: 'Enabled' | 'Disabled') => void;
  onChoose: (op: 'add-to-set' | 'remove-from-set') => void;
  onDelete: () => void;
}) {
  return (
    <span className="bulk-actions">
      {hasStatus && (
        <>
          <button
            type="button"
            className="button button-small"
            disabled={disabled}
            onClick={() => onStatus('Enabled')}
          >
            Enable selected
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={disabled}
            onClick={() => onStatus('Disabled')}
          >
            Disable selected
          </button>
        </>
      )}
      {target && (
        <>
          <button
            type="button"
            className="button button-small"
            disabled={disabled}
            onClick={() => onChoose('add-to-set')}
          >
            Assign {target.names.many}
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={disabled}
            onClick={() => onChoose('remove-from-set')}
          >
            Remove {target.names.many}
          </button>
        </>
      )}
      {entity.api.remove && (
        <button
          type="button"
          className="button button-small button-danger"
          disabled={disabled}
          onClick={onDelete}
        >
          Delete selected
        </button>
      )}
    </span>
  );
}
