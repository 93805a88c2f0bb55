import { Button, Card, Result, Space, Table } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';

import { downloadText } from '@/shared/csv';
import { formatBaht } from '@/shared/money';
import type { ImportedOrderBody } from '../api';
import { OrderImportSteps, useColumnName, useProblem } from './OrderImportUploadPage';
import { failedRowsFile, orderImport, reasonsByRow, resetOrderImport } from './session';

/** What the import made, and the rows it did not with their reasons, to download, fix and
 * import again. */
export default function OrderImportResultPage() {
  const { t } = useTranslation(['orders', 'common']);
  const { storeId, saleChannel } = useParams();
  const navigate = useNavigate();
  const column = useColumnName();
  const message = useProblem();
  const result = orderImport.result;
  if (!result) return <Navigate to={`/${storeId}/order-import/${saleChannel}/upload`} replace />;
  const failed = result.data.failedRows.length;
  const reasons = reasonsByRow(result, column, message);

  const download = () => {
    const text = failedRowsFile(result, { row: t('orders:import.row'), reason: t('orders:import.reason') }, column, message);
    downloadText(t('orders:import.failedFileName'), text);
  };

  return (
    <Card title={t('orders:import.title')} data-testid="order-import-result">
      <OrderImportSteps current={2} />
      <Result
        status={failed ? 'warning' : 'success'}
        title={t('orders:import.done', { count: result.data.created })}
        subTitle={failed ? t('orders:import.previewFailed', { count: failed }) : undefined}
        extra={
          <Space wrap>
            {failed ? (
              <Button icon={<DownloadOutlined />} onClick={download} data-testid="import-download-failed">
                {t('orders:import.downloadFailed')}
              </Button>
            ) : null}
            <Button
              onClick={() => {
                resetOrderImport();
                navigate(`/${storeId}/order-import/${saleChannel}/upload`);
              }}
              data-testid="import-again"
            >
              {t('orders:import.another')}
            </Button>
            <Button type="primary" onClick={() => navigate(`/${storeId}/order-list`)} data-testid="import-to-orders">
              {t('orders:import.toOrders')}
            </Button>
          </Space>
        }
      />
      {failed ? (
        <Table
          rowKey="row"
          size="small"
          title={() => t('orders:import.problemsTab')}
          dataSource={result.data.failedRows.map((f) => ({ row: f.row, reason: reasons.get(f.row) ?? '' }))}
          pagination={{ pageSize: 10, showSizeChanger: false }}
          data-testid="import-result-problems"
          columns={[
            { title: t('orders:import.row'), dataIndex: 'row', width: 90 },
            { title: t('orders:import.reason'), dataIndex: 'reason' },
          ]}
        />
      ) : null}
      {result.data.orders.length ? (
        <Table<ImportedOrderBody>
          rowKey="reference"
          size="small"
          style={{ marginTop: 16 }}
          title={() => t('orders:import.madeTitle')}
          dataSource={result.data.orders}
          pagination={{ pageSize: 10, showSizeChanger: false }}
          data-testid="import-result-orders"
          columns={[
            { title: t('orders:fields.orderNo'), dataIndex: 'orderNo', render: (v: string, o) => (o.orderId ? <Link to={`/${storeId}/order-detail/${o.orderId}`}>{v}</Link> : v) },
            { title: column('reference'), dataIndex: 'reference' },
            { title: column('name'), dataIndex: 'name' },
            { title: t('orders:import.total'), dataIndex: 'total', align: 'right', render: (v: string) => formatBaht(v) },
          ]}
        />
      ) : null}
    </Card>
  );
}
