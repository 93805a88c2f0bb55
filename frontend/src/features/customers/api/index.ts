// Hand-written side of the generated client: cache tags and re-exports.
import { enhancedApi } from './endpoints.gen';

type Arg = { customerId?: number };
const customer = (_r: unknown, _e: unknown, a: Arg) => [{ type: 'Customer' as const, id: a.customerId }, { type: 'Customer' as const, id: 'LIST' }];
const book = (_r: unknown, _e: unknown, a: Arg) => [
  { type: 'Address' as const, id: a.customerId },
  { type: 'Customer' as const, id: a.customerId },
  { type: 'Customer' as const, id: 'LIST' },
];

export const customersApi = enhancedApi.enhanceEndpoints({
  endpoints: {
    listCustomers: { providesTags: [{ type: 'Customer', id: 'LIST' }] },
    getCustomer: { providesTags: (_r, _e, a) => [{ type: 'Customer', id: a.customerId }] },
    createCustomer: { invalidatesTags: [{ type: 'Customer', id: 'LIST' }] },
    updateCustomer: { invalidatesTags: (r, e, a) => [...customer(r, e, a), { type: 'Address', id: a.customerId }] },
    deleteCustomer: { invalidatesTags: customer },
    listAddresses: { providesTags: (_r, _e, a) => [{ type: 'Address', id: a.customerId }] },
    getAddress: { providesTags: (_r, _e, a) => [{ type: 'Address', id: a.customerId }] },
    createAddress: { invalidatesTags: book },
    updateAddress: { invalidatesTags: book },
    deleteAddress: { invalidatesTags: book },
    setDefaultAddress: { invalidatesTags: book },
  },
});

export const {
  useListCustomersQuery,
  useGetCustomerQuery,
  useCreateCustomerMutation,
  useUpdateCustomerMutation,
  useDeleteCustomerMutation,
  useListAddressesQuery,
  useGetAddressQuery,
  useCreateAddressMutation,
  useUpdateAddressMutation,
  useDeleteAddressMutation,
  useSetDefaultAddressMutation,
} = customersApi;
export type { AddressBody, CustomerBody } from './endpoints.gen';

// For other features' screens (an order's customer): the customer picker.
export { CustomerPicker } from '../CustomerPicker';
export type { AddressInput } from './endpoints.gen';
