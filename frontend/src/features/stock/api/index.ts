// Hand-written side of the generated client: cache tags and re-exports.
import { enhancedApi } from './endpoints.gen';

export const stockApi = enhancedApi
  .enhanceEndpoints({ addTagTypes: ['Adjustment', 'Inventory', 'Product'] })
  .enhanceEndpoints({
    endpoints: {
      listGoodsAdjust: { providesTags: [{ type: 'Adjustment', id: 'LIST' }] },
      createGoodsAdjust: {
        // The inventory view follows the ledger's event a moment later.
        invalidatesTags: [{ type: 'Adjustment', id: 'LIST' }, { type: 'Inventory', id: 'LIST' }, { type: 'Product', id: 'LIST' }],
      },
    },
  });

export const { useListWarehousesQuery, useListGoodsAdjustQuery, useCreateGoodsAdjustMutation } = stockApi;
import type { ListGoodsAdjustBody, ListWarehouseBody } from './endpoints.gen';
export type GoodsAdjustBody = ListGoodsAdjustBody['data'][number];
export type WarehouseBody = ListWarehouseBody['data'][number];
