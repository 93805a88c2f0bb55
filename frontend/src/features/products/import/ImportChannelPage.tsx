import { Card, List } from 'antd';
import { ShopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { STORE_CHANNEL, STORE_CHANNEL_ID } from '../channel';
import { resetImport } from './session';

/** Step 0: where the spreadsheet comes from. Marketplaces join with the sales-channel screens. */
export default function ImportChannelPage() {
  const { t } = useTranslation('products');
  const { storeId } = useParams();
  const navigate = useNavigate();
  return (
    <Card title={t('import.title')}>
      <List
        dataSource={[STORE_CHANNEL]}
        renderItem={(channel) => (
          <List.Item
            style={{ cursor: 'pointer' }}
            data-testid={`import-channel-${channel}`}
            onClick={() => {
              resetImport();
              navigate(`/${storeId}/product-import/${channel}/upload/${STORE_CHANNEL_ID}`);
            }}
          >
            <List.Item.Meta avatar={<ShopOutlined style={{ fontSize: 24 }} />} title={t(`import.channels.${channel}.title`)} description={t(`import.channels.${channel}.description`)} />
          </List.Item>
        )}
      />
    </Card>
  );
}
