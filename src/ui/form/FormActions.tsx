/** A form's submit button and its Cancel link back to where the form came from. */
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

export function FormActions({
  submit,
  disabled,
  back,
  onCancel,
}: {
  submit: ReactNode;
  disabled: boolean;
  back: string;
  /** Cancel gives up what was typed (its draft goes). */
  onCancel?: () => void;
}) {
  return (
    <div className="form-actions">
      <button type="submit" className="button" disabled={disabled}>
        {submit}
      </button>
      <Link to={back} className="button button-light" onClick={onCancel}>
        Cancel
      </Link>
    </div>
  );
}
