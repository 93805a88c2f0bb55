import { Card, List, Tag } from 'antd';
import { ShopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { useOrderChannelsQuery } from '../api';
import { channelName } from '../parts';
import { resetOrderImport } from './session';

/** Where the orders of the file were sold: every order of one file belongs to one channel. */
export default function OrderImportChannelPage() {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const { storeId } = useParams();
  const navigate = useNavigate();
  const { data: channels, isLoading } = useOrderChannelsQuery();
  return (
    <Card title={t('orders:import.title')} data-testid="order-import-channels">
      <List
        loading={isLoading}
        dataSource={channels?.data ?? []}
        renderItem={(c) => (
          <List.Item
            style={{ cursor: 'pointer' }}
            data-testid={`order-import-channel-${c.code}`}
            onClick={() => {
              resetOrderImport();
              navigate(`/${storeId}/order-import/${c.code}/upload`);
            }}
          >
            <List.Item.Meta avatar={<ShopOutlined style={{ fontSize: 24 }} />} title={channelName(c.code, channels?.data, i18n.language)} description={<Tag>{t(`orders:import.kinds.${c.kind}`, { defaultValue: c.kind })}</Tag>} />
          </List.Item>
        )}
      />
    </Card>
  );
}
