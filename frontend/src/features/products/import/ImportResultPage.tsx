import { Button, Card, Result, Space, Table } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { pathOf } from '@/features/marketplaces/api';
import { ListingFileResult } from '../listings/FileImport';
import { Navigate, useNavigate, useParams } from 'react-router-dom';

import { downloadText } from '@/shared/csv';
import { STORE_CHANNEL } from '../channel';
import { ImportSteps } from './ImportUploadPage';
import { failedRowsCsv, importSession, resetImport } from './session';

/** Step 3: what was created and skipped, and the failed rows to download. */
/** The wizard's step for the store's own catalogue, or for a marketplace shop. */
export default function ImportResultPage() {
  const { storeId, saleChannel, storeChannelId } = useParams();
  const path = pathOf(saleChannel);
  const shopId = Number(storeChannelId);
  if (path && shopId > 0) return <ListingFileResult storeId={storeId ?? ''} channel={saleChannel ?? ''} path={path} shopId={shopId} />;
  return <StoreImportResultPage />;
}

function StoreImportResultPage() {
  const { t } = useTranslation(['products', 'common']);
  const { storeId, saleChannel, storeChannelId } = useParams();
  const navigate = useNavigate();
  const result = importSession.result;
  if (!result) return <Navigate to={`/${storeId}/product-import/${saleChannel}/upload/${storeChannelId}`} replace />;
  const message = (code: string) => t(`common:${code}`, { defaultValue: code });

  const download = () => {
    const csv = failedRowsCsv(result.errors, [t('products:import.row'), t('products:import.column'), t('products:import.problem')], message);
    downloadText('failed-rows.csv', csv);
  };

  return (
    <Card title={t('products:import.title')}>
      <ImportSteps current={2} />
      <Result
        status={result.errors.length ? 'warning' : 'success'}
        title={t('products:import.done', { created: result.data.created, skipped: result.data.skipped })}
        subTitle={result.errors.length ? t('products:import.failedRows', { count: result.errors.length }) : undefined}
        extra={
          <Space>
            {result.errors.length ? (
              <Button icon={<DownloadOutlined />} onClick={download} data-testid="import-download">
                {t('products:import.download')}
              </Button>
            ) : null}
            <Button
              type="primary"
              onClick={() => {
                resetImport();
                navigate(`/${storeId}/product-list/${STORE_CHANNEL}`);
              }}
            >
              {t('products:import.toList')}
            </Button>
          </Space>
        }
        data-testid="import-result"
      />
      {result.errors.length ? (
        <Table
          size="small"
          rowKey={(e) => `${e.row}-${e.field}-${e.code}`}
          dataSource={result.errors}
          pagination={false}
          columns={[
            { title: t('products:import.row'), dataIndex: 'row' },
            { title: t('products:import.column'), dataIndex: 'field' },
            { title: t('products:import.problem'), dataIndex: 'code', render: (c: string) => message(c) },
          ]}
        />
      ) : null}
    </Card>
  );
}
