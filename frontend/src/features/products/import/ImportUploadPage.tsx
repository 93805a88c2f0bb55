import { useState } from 'react';
import { Alert, Card, Steps, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { pathOf } from '@/features/marketplaces/api';
import { ListingFileUpload } from '../listings/FileImport';
import { useNavigate, useParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { useImportProductsFileMutation } from '../api';
import { checkImportFile, importSession } from './session';

export function ImportSteps({ current }: { current: number }) {
  const { t } = useTranslation('products');
  return <Steps current={current} style={{ marginBottom: 24 }} items={[{ title: t('import.steps.upload') }, { title: t('import.steps.mapping') }, { title: t('import.steps.result') }]} />;
}

/** Step 1: choose the .xlsx; the server reads it (dry run) before anything is created. */
/** The wizard's step for the store's own catalogue, or for a marketplace shop. */
export default function ImportUploadPage() {
  const { storeId, saleChannel, storeChannelId } = useParams();
  const path = pathOf(saleChannel);
  const shopId = Number(storeChannelId);
  if (path && shopId > 0) return <ListingFileUpload storeId={storeId ?? ''} channel={saleChannel ?? ''} path={path} shopId={shopId} />;
  return <StoreImportUploadPage />;
}

function StoreImportUploadPage() {
  const { t } = useTranslation(['products', 'common']);
  const { storeId, saleChannel, storeChannelId } = useParams();
  const navigate = useNavigate();
  const [preview, { isLoading }] = useImportProductsFileMutation();
  const [problem, setProblem] = useState<string | null>(null);

  const choose = async (file: File) => {
    setProblem(null);
    const local = checkImportFile(file.name, file.size);
    if (local) {
      setProblem(local);
      return;
    }
    try {
      const r = await preview({ file, dryRun: true }).unwrap();
      importSession.file = file;
      importSession.preview = r;
      navigate(`/${storeId}/product-import/${saleChannel}/mapping/${storeChannelId}`);
    } catch (e) {
      const code = apiError(e)?.fields?.[0]?.code ?? apiError(e)?.code;
      setProblem(code ? `products:import.errors.${code}` : 'common:errors.tryLater');
    }
  };

  return (
    <Card title={t('products:import.title')}>
      <ImportSteps current={0} />
      {problem ? <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t(problem, { defaultValue: t('products:import.errors.import_wrong_template') })} data-testid="import-error" /> : null}
      <Upload.Dragger
        accept=".xlsx"
        multiple={false}
        showUploadList={false}
        disabled={isLoading}
        beforeUpload={(file) => {
          void choose(file);
          return false;
        }}
        data-testid="import-upload"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <Typography.Paragraph>{t('products:import.drop')}</Typography.Paragraph>
        <Typography.Text type="secondary">{t('products:import.rules')}</Typography.Text>
      </Upload.Dragger>
    </Card>
  );
}
