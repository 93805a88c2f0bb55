// A channel's generated keys as the open-API and Magento channels' pages show them: a key
// just generated (shown once, with a way to copy it) and the table of its keys.
import { Alert, Button, Input, Space, Table, Tag, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import type { ApiKeyBody, GeneratedKeyBody } from './api';

/** Copies a text, saying whether it could. */
export async function copyText(text: string, done: string, failed: string) {
  try {
    await navigator.clipboard.writeText(text);
    notifySuccess(done);
  } catch {
    notifyError(failed);
  }
}

/** A key just generated: shown this once, with a way to copy it. `prefix` names its test ids
 * (`<prefix>-key-value`, …); `title` says what to do with it. */
export function NewKey({ generated, prefix = 'api', title }: { generated: GeneratedKeyBody; prefix?: string; title?: string }) {
  const { t } = useTranslation(['marketplaces']);
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      title={title ?? t('marketplaces:api.key.once')}
      description={
        <Space.Compact style={{ width: '100%', marginTop: 8 }}>
          <Input readOnly value={generated.key} data-testid={`${prefix}-key-value`} style={{ fontFamily: 'monospace' }} />
          <Button
            icon={<CopyOutlined />}
            onClick={() => void copyText(generated.key, t('marketplaces:api.key.copied'), t('marketplaces:api.key.copyFailed'))}
            data-testid={`${prefix}-key-copy`}
          >
            {t('marketplaces:api.key.copy')}
          </Button>
        </Space.Compact>
      }
      data-testid={`${prefix}-key-once`}
    />
  );
}

/** A channel's keys: which work, until when, when last used. */
export function Keys({ keys, lng, testId = 'api-keys' }: { keys: ApiKeyBody[]; lng: string; testId?: string }) {
  const { t } = useTranslation(['marketplaces']);
  return (
    <Table<ApiKeyBody>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={keys}
      data-testid={testId}
      columns={[
        { title: t('marketplaces:api.key.shown'), dataIndex: 'shown', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
        { title: t('marketplaces:api.key.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v, lng) },
        {
          title: t('marketplaces:api.key.state'),
          key: 'state',
          render: (_: unknown, k: ApiKeyBody) =>
            k.working ? (
              <Tag color="green">{k.expiresAt ? t('marketplaces:api.key.until', { at: formatDateTime(k.expiresAt, lng) }) : t('marketplaces:api.key.working')}</Tag>
            ) : (
              <Tag>{k.revokedAt ? t('marketplaces:api.key.revoked') : t('marketplaces:api.key.expired')}</Tag>
            ),
        },
        { title: t('marketplaces:api.key.lastUsedAt'), dataIndex: 'lastUsedAt', render: (v: string | null) => (v ? formatDateTime(v, lng) : t('marketplaces:list.never')) },
      ]}
    />
  );
}
