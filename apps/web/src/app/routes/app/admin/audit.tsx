import { AuditLogPage } from '@/features/audit-log/components/audit-log-page';

export default function AuditLogRoute() {
  return <AuditLogPage />;
}
