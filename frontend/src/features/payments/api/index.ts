// Hand-written side of the generated client: cache tags, re-exports and who may change the
// store's payment accounts.
import type { Access } from '@/shared/perms';
import { P } from '@/shared/permissions.gen';
import { enhancedApi, type ListStoreChannelBody } from './endpoints.gen';

/** The payment-account screens and their changes: the owner role or payment.storeChannel.*
 * (SPEC §2, §6), as the gateway decides it. Any member may read the accounts (an order says
 * where to pay). */
export const PAYMENT_EDIT: Access = { roles: ['owner'], permissions: [P.paymentStoreChannelAll] };

// The store's first payment account ticks a getting-started step ('Store').
const CHANGED = [{ type: 'PaymentChannel' as const, id: 'LIST' }, 'Store' as const];

export const paymentsApi = enhancedApi
  .enhanceEndpoints({ addTagTypes: ['PaymentChannel'] })
  .enhanceEndpoints({
    endpoints: {
      listStoreChannels: { providesTags: [{ type: 'PaymentChannel', id: 'LIST' }] },
      getStoreChannel: { providesTags: (_r, _e, a) => [{ type: 'PaymentChannel', id: a.id }] },
      createStoreChannel: { invalidatesTags: CHANGED },
      updateStoreChannel: { invalidatesTags: (_r, _e, a) => [...CHANGED, { type: 'PaymentChannel', id: a.id }] },
      setStatusByType: { invalidatesTags: [{ type: 'PaymentChannel' }] },
      deleteStoreChannel: { invalidatesTags: CHANGED },
      // A QR is drawn for an account's current id; it changes with the account.
      promptpayQr: { providesTags: (_r, _e, a) => [{ type: 'PaymentChannel', id: a.id }] },
    },
  });

export const {
  useBanksQuery,
  useChannelTypesQuery,
  useCountriesQuery,
  useListStoreChannelsQuery,
  useGetStoreChannelQuery,
  useCreateStoreChannelMutation,
  useUpdateStoreChannelMutation,
  useSetStatusByTypeMutation,
  useDeleteStoreChannelMutation,
  usePromptpayQrQuery,
} = paymentsApi;
export type { BankBody, QrBody, StoreChannelBody, StoreChannelInput } from './endpoints.gen';
/** One payment account of the list. */
export type PaymentChannelRow = ListStoreChannelBody['data'][number];
/** How an account reads in other screens (an order's payments). */
export { accountLabel } from '../payments';
