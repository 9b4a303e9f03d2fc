// The tables the admin panel shows live with the features that own them: the settings' and the
// audit's. Named here too for the suites that arrange and check them.
export { appSettings, type StoredSection } from '@/features/settings/settings.table';
export { adminAudit, type AuditChanges, type AuditTargetName } from '@/features/audit/audit.table';
