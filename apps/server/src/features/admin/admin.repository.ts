// The audit the admin panel lists is the audit slice's. Named here too for the suites that check it.
export { listAudit } from '@/features/audit/audit.service';
