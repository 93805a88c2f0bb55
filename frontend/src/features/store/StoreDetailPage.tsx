import { Avatar, Button, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { ShopOutlined } from '@ant-design/icons';
import { EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { AuditTimeline } from '@/shared/audit/AuditTimeline';
import { formatDateTime } from '@/shared/i18n/i18n';
import { useCan } from '@/shared/useCan';
import { TEAM, useListAuditQuery } from '@/features/team/api';
import { useGetStoreQuery } from './api';
import { STORE_EDIT } from './routes';

/** /setting/store-detail: the store's details for every member; the owner edits them; those
 * who manage the team see the store's last changes. */
export default function StoreDetailPage() {
  const { t, i18n } = useTranslation(['store', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const { data: s, isLoading } = useGetStoreQuery({ id });
  const canEdit = useCan(STORE_EDIT);
  const canSeeChanges = useCan(TEAM);
  // Always fresh: the store's changes come from several screens.
  const { data: audit } = useListAuditQuery({ id, limit: 10 }, { skip: !canSeeChanges, refetchOnMountOrArgChange: true });
  const navigate = useNavigate();
  const address = s ? [s.address, s.subDistrict, s.district, s.province, s.postcode].filter(Boolean).join(' ') : '';

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card loading={isLoading} data-testid="store-detail">
        <div className="bo-page-head">
          <Space size="middle">
            <Avatar shape="square" size={56} src={s?.logoUrl || undefined} icon={<ShopOutlined />} alt={t('store:logo.title')} data-testid="store-logo" />
            <h1>{t('store:detail.title')}</h1>
          </Space>
          {canEdit ? (
            <Button type="primary" icon={<EditOutlined />} onClick={() => navigate(`/${id}/setting/store-edit`)} data-testid="store-edit-open">
              {t('common:actions.edit')}
            </Button>
          ) : null}
        </div>
        {s ? (
          <Descriptions column={1} bordered size="middle">
            <Descriptions.Item label={t('store:fields.name')}>
              <span data-testid="store-name">{s.name}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('store:fields.address')}>{address || <Typography.Text type="secondary">{t('store:detail.none')}</Typography.Text>}</Descriptions.Item>
            <Descriptions.Item label={t('store:fields.tel')}>{s.tel || <Typography.Text type="secondary">{t('store:detail.none')}</Typography.Text>}</Descriptions.Item>
            <Descriptions.Item label={t('store:fields.vat')}>
              <Tag color={s.vatIncluded ? 'blue' : 'default'}>{t(s.vatIncluded ? 'store:fields.vatIncluded' : 'store:fields.vatExcluded')}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('store:fields.updatedAt')}>{formatDateTime(s.updatedAt, i18n.language)}</Descriptions.Item>
          </Descriptions>
        ) : null}
      </Card>
      {canSeeChanges ? (
        <Card title={t('common:audit.recent')}>
          <AuditTimeline entries={audit?.data ?? []} withActor testId="store-audit" />
        </Card>
      ) : null}
    </Space>
  );
}
