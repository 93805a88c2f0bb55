import { Card, Col, Row, Typography } from 'antd';
import { RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';

import { useAppSelector } from '@/app/hooks';
import { SETTINGS, visibleEntries } from '@/app/menu';

/** /setting: the settings the member may open, without the ones the store hides (SPEC §2). */
export default function SettingIndexPage() {
  const { t } = useTranslation(['store', 'common']);
  const { storeId } = useParams();
  const login = useAppSelector((s) => (storeId ? s.session.stores[storeId] : undefined));
  const hiding = useAppSelector((s) => s.store.menuHidingList) ?? [];
  const entries = login ? visibleEntries(SETTINGS, { permission: login.permission, permissions: login.permissions }, hiding) : [];
  return (
    <Card data-testid="setting-index">
      <div className="bo-page-head">
        <h1>{t('common:menu.settings')}</h1>
      </div>
      <Row gutter={[16, 16]}>
        {entries.map((e) => (
          <Col xs={24} md={12} key={e.path}>
            <Link to={`/${storeId}/${e.path}`} data-testid={`setting-${e.path.replace('setting/', '')}`}>
              <Card size="small" hoverable>
                <Typography.Text strong>{t(`common:${e.label}`)}</Typography.Text>
                <RightOutlined style={{ float: 'right', marginTop: 4 }} />
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
