import { Card, List } from 'antd';
import { ShopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { useListMarketplaceChannelsQuery } from '@/features/marketplaces/api';
import { STORE_CHANNEL, STORE_CHANNEL_ID } from '../channel';
import { resetImport } from './session';

/** Step 0: where the spreadsheet comes from: the store's own catalogue, or one of its
 * connected marketplace shops (the platform's export of its listings). */
export default function ImportChannelPage() {
  const { t } = useTranslation(['products', 'marketplaces']);
  const { storeId } = useParams();
  const navigate = useNavigate();
  const { data: shops } = useListMarketplaceChannelsQuery({});
  const sources = [
    { key: STORE_CHANNEL, to: `${STORE_CHANNEL}/upload/${STORE_CHANNEL_ID}`, title: t('products:import.channels.store.title'), description: t('products:import.channels.store.description') },
    ...(shops?.data ?? []).map((s) => ({
      key: `${s.marketplace}-${s.id}`,
      to: `${s.marketplace}/upload/${s.id}`,
      title: `${t(`marketplaces:names.${s.marketplace}`)} · ${s.shopName}`,
      description: t('products:listings.file.source', { name: t(`marketplaces:names.${s.marketplace}`) }),
    })),
  ];
  return (
    <Card title={t('products:import.title')}>
      <List
        dataSource={sources}
        renderItem={(source) => (
          <List.Item
            style={{ cursor: 'pointer' }}
            data-testid={`import-channel-${source.key}`}
            onClick={() => {
              resetImport();
              navigate(`/${storeId}/product-import/${source.to}`);
            }}
          >
            <List.Item.Meta avatar={<ShopOutlined style={{ fontSize: 24 }} />} title={source.title} description={source.description} />
          </List.Item>
        )}
      />
    </Card>
  );
}
