/**
 * A screen only an Owner opens (administrators, the audit trail), reached by another role (a
 * bookmark, a typed address): it says so, in the server's words, instead of asking the server
 * for what it would refuse.
 */
import type { ReactNode } from 'react';
import type { AuditSearch } from '../../app/audit/audit-search';
import { cannotManageAdmins, cannotReadAudit, isOwner, type Role } from '../../contract/accounts/roles';
import { useRole } from '../../ui/role';
import { usePageTitle } from '../../ui/use-page-title';
import { AuditScreen } from '../audit';
import { AdministratorsScreen } from './administrators';

export function OwnerGate({
  title,
  refusal,
  children,
}: {
  title: string;
  refusal: (role: Role) => string;
  children: ReactNode;
}) {
  const role = useRole();
  return isOwner(role) ? children : <Refused title={title} refusal={refusal(role)} />;
}

function Refused({ title, refusal }: { title: string; refusal: string }) {
  usePageTitle(title);
  return (
    <section className="screen">
      <h1>{title}</h1>
      <p role="alert">{refusal}</p>
    </section>
  );
}

export const GatedAuditScreen = ({ search }: { search: AuditSearch }) => (
  <OwnerGate title="Audit Trail" refusal={cannotReadAudit}>
    <AuditScreen search={search} />
  </OwnerGate>
);

export const GatedAdministratorsScreen = () => (
  <OwnerGate title="Administrators" refusal={cannotManageAdmins}>
    <AdministratorsScreen />
  </OwnerGate>
);
