import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { useListMarketplaceChannelsQuery } from '@/features/marketplaces/api';
import { STORE_CHANNEL } from '../channel';

/** Which catalogue the product list shows: the store's own, or a connected marketplace
 * shop's listings (`/product-list/{channel}/{providerName}`, the shop's id). */
export function ChannelSwitch({ value }: { value: string }) {
  const { t } = useTranslation(['products', 'marketplaces']);
  const { storeId } = useParams();
  const navigate = useNavigate();
  const { data } = useListMarketplaceChannelsQuery({});
  const shops = data?.data ?? [];
  if (shops.length === 0) return null;
  return (
    <Select
      value={value}
      style={{ minWidth: 240 }}
      onChange={(v: string) => navigate(`/${storeId}/product-list/${v}`)}
      options={[
        { value: STORE_CHANNEL, label: t('products:listings.ourCatalogue') },
        ...shops.map((s) => ({ value: `${s.marketplace}/${s.id}`, label: `${t(`marketplaces:names.${s.marketplace}`)} · ${s.shopName}` })),
      ]}
      data-testid="channel-switch"
    />
  );
}
