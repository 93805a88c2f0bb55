// How the customers' forms show a server's refusals (see shared/form/serverErrors).
import type { ServerErrorOptions } from '@/shared/form/serverErrors';

/** A duplicate phone goes under the phone, with its own message (SPEC §5). */
export const CUSTOMER_ERRORS: ServerErrorOptions = {
  codes: { customer_phone_duplicate: { field: 'tel', message: 'customers:errors.customer_phone_duplicate' } },
};
