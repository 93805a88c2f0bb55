import { useRef, useState } from 'react';
import { Alert, Button, Card, Empty, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { apiError } from '@/app/api/errors';
import { useAddPhotoFilesMutation, useDeletePhotoMutation, usePhotoRulesQuery, useReorderPhotosMutation, type PhotoBody } from './api';
import { canDeletePhoto, checkPhotos, DEFAULT_PHOTO_RULES, moved } from './photoRules';

/** Photos of a product (drag to order; the first is the cover) and its size-chart image. */
export function PhotosCard({ productId, photos, sizeChart }: { productId: number; photos: PhotoBody[]; sizeChart?: PhotoBody | null }) {
  const { t } = useTranslation(['products', 'common']);
  const [add, { isLoading: adding }] = useAddPhotoFilesMutation();
  const [reorder] = useReorderPhotosMutation();
  const [remove] = useDeletePhotoMutation();
  const { data: rules = DEFAULT_PHOTO_RULES } = usePhotoRulesQuery();
  const [problem, setProblem] = useState<string | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const photoInput = useRef<HTMLInputElement>(null);
  const chartInput = useRef<HTMLInputElement>(null);

  const upload = async (list: FileList | null, kind: 'photo' | 'size_chart') => {
    setProblem(null);
    const files = Array.from(list ?? []);
    if (files.length === 0) return;
    const bad = checkPhotos(files, kind === 'photo' ? photos.length : 0, rules);
    if (bad) {
      setProblem(bad);
      return;
    }
    try {
      await add({ id: productId, files, kind }).unwrap();
      notifySuccess(t('products:photos.uploaded'));
    } catch (e) {
      const code = apiError(e)?.fields?.[0]?.code ?? apiError(e)?.code;
      setProblem(code === 'photo_too_many' ? 'products:photos.errors.too_many' : 'products:photos.errors.type');
    }
  };

  const removePhoto = async (photoId: number) => {
    try {
      await remove({ id: productId, photoId }).unwrap();
    } catch (e) {
      if (apiError(e)?.code === 'photo_too_few') notifyError(t('products:photos.keepMin', { count: rules.minPerProduct }));
    }
  };

  const deletable = canDeletePhoto(photos.length, rules);

  const drop = (target: number) => {
    if (dragged === null) return;
    const ids = moved(photos.map((p) => p.id), dragged, target);
    setDragged(null);
    void reorder({ id: productId, photoOrderInput: { ids } });
  };

  return (
    <Card title={t('products:photos.title')} style={{ marginBottom: 16 }} extra={<Typography.Text type="secondary">{t('products:photos.hint')}</Typography.Text>}>
      {problem ? <Alert type="error" showIcon style={{ marginBottom: 12 }} title={t(problem, { count: rules.maxPerProduct })} data-testid="photo-error" /> : null}
      {photos.length < rules.minPerProduct ? (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('products:photos.needMore', { count: rules.minPerProduct })} data-testid="photo-need-more" />
      ) : null}
      <div className="bo-photos" data-testid="photos">
        {photos.length === 0 ? <Empty description={t('products:photos.none')} /> : null}
        {photos.map((p, i) => (
          <div
            key={p.id}
            className="bo-photo"
            draggable
            onDragStart={() => setDragged(p.id)}
            onDragOver={(e) => e.preventDefault()}
            onDrop={() => drop(p.id)}
            data-testid={`photo-${i}`}
          >
            <img src={`${p.url}?size=120`} alt="" width={120} height={120} />
            {i === 0 ? <Tag color="blue" className="bo-photo-cover">{t('products:photos.cover')}</Tag> : null}
            <Tooltip title={deletable ? undefined : t('products:photos.keepMin', { count: rules.minPerProduct })}>
              <Button size="small" danger icon={<DeleteOutlined />} className="bo-photo-delete" aria-label={t('common:actions.delete')} disabled={!deletable} onClick={() => void removePhoto(p.id)} />
            </Tooltip>
          </div>
        ))}
      </div>
      <Space style={{ marginTop: 12 }} wrap>
        <input ref={photoInput} type="file" accept=".jpg,.jpeg,.png,image/jpeg,image/png" multiple style={{ display: 'none' }} onChange={(e) => void upload(e.target.files, 'photo').finally(() => (e.target.value = ''))} data-testid="photo-input" />
        <Button icon={<UploadOutlined />} loading={adding} onClick={() => photoInput.current?.click()}>
          {t('products:photos.add')}
        </Button>
        <input ref={chartInput} type="file" accept=".jpg,.jpeg,.png,image/jpeg,image/png" style={{ display: 'none' }} onChange={(e) => void upload(e.target.files, 'size_chart').finally(() => (e.target.value = ''))} data-testid="size-chart-input" />
        <Button onClick={() => chartInput.current?.click()}>{t(sizeChart ? 'products:photos.replaceSizeChart' : 'products:photos.addSizeChart')}</Button>
        {sizeChart ? (
          <Space>
            <img src={`${sizeChart.url}?size=48`} alt="" width={48} height={48} data-testid="size-chart" />
            <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('common:actions.delete')} onClick={() => void remove({ id: productId, photoId: sizeChart.id })} />
          </Space>
        ) : null}
      </Space>
    </Card>
  );
}
