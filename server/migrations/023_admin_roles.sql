-- Administrators' roles and statuses (src/contract/accounts/roles.ts). Accounts made before
-- roles were all-powerful, so they stay Owners; the server refuses every change outside an
-- account's role, and a Disabled account neither signs in nor keeps its sessions.
ALTER TABLE admins
  ADD COLUMN role text NOT NULL DEFAULT 'Owner'
    CHECK (role IN ('Owner', 'Editor', 'School manager', 'Viewer')),
  ADD COLUMN status text NOT NULL DEFAULT 'Enabled' CHECK (status IN ('Enabled', 'Disabled')),
  ADD COLUMN last_sign_in timestamptz;
