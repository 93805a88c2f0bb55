import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Empty, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { apiError } from '@/app/api/errors';
import { useAddPhotoFilesMutation, useDeletePhotoMutation, usePhotoRulesQuery, useReorderPhotosMutation, type PhotoBody } from './api';
import { canDeletePhoto, checkPhotos, DEFAULT_PHOTO_RULES, moved, type PhotoRules } from './photoRules';

type Kind = 'photo' | 'size_chart';

interface Tile {
  key: number;
  src: string;
}

/** The card both modes share: the ordered tiles (drag to order; the first is the cover),
 * the warning under the minimum, the file pickers and the size chart. */
function PhotoFrame(props: {
  tiles: Tile[];
  chart: Tile | null;
  rules: PhotoRules;
  problem: string | null;
  busy: boolean;
  deletable: boolean;
  onFiles: (files: File[], kind: Kind) => void;
  onMove: (from: number, to: number) => void;
  onDelete: (key: number) => void;
  onDeleteChart: () => void;
  extra?: ReactNode;
}) {
  const { tiles, chart, rules, problem, deletable } = props;
  const { t } = useTranslation(['products', 'common']);
  const [dragged, setDragged] = useState<number | null>(null);
  const photoInput = useRef<HTMLInputElement>(null);
  const chartInput = useRef<HTMLInputElement>(null);
  const picked = (e: React.ChangeEvent<HTMLInputElement>, kind: Kind) => {
    props.onFiles(Array.from(e.target.files ?? []), kind);
    e.target.value = '';
  };

  return (
    <Card title={t('products:photos.title')} style={{ marginBottom: 16 }} extra={<Typography.Text type="secondary">{t('products:photos.hint')}</Typography.Text>}>
      {props.extra}
      {problem ? <Alert type="error" showIcon style={{ marginBottom: 12 }} title={t(problem, { count: rules.maxPerProduct })} data-testid="photo-error" /> : null}
      {tiles.length < rules.minPerProduct ? (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('products:photos.needMore', { count: rules.minPerProduct })} data-testid="photo-need-more" />
      ) : null}
      <div className="bo-photos" data-testid="photos">
        {tiles.length === 0 ? <Empty description={t('products:photos.none')} /> : null}
        {tiles.map((p, i) => (
          <div
            key={p.key}
            className="bo-photo"
            draggable
            onDragStart={() => setDragged(p.key)}
            onDragOver={(e) => e.preventDefault()}
            onDrop={() => {
              if (dragged !== null) props.onMove(dragged, p.key);
              setDragged(null);
            }}
            data-testid={`photo-${i}`}
          >
            <img src={p.src} alt="" width={120} height={120} style={{ objectFit: 'contain' }} />
            {i === 0 ? <Tag color="blue" className="bo-photo-cover">{t('products:photos.cover')}</Tag> : null}
            <Tooltip title={deletable ? undefined : t('products:photos.keepMin', { count: rules.minPerProduct })}>
              <Button size="small" danger icon={<DeleteOutlined />} className="bo-photo-delete" aria-label={t('common:actions.delete')} disabled={!deletable} onClick={() => props.onDelete(p.key)} />
            </Tooltip>
          </div>
        ))}
      </div>
      <Space style={{ marginTop: 12 }} wrap>
        <input ref={photoInput} type="file" accept=".jpg,.jpeg,.png,image/jpeg,image/png" multiple style={{ display: 'none' }} onChange={(e) => picked(e, 'photo')} data-testid="photo-input" />
        <Button icon={<UploadOutlined />} loading={props.busy} onClick={() => photoInput.current?.click()}>
          {t('products:photos.add')}
        </Button>
        <input ref={chartInput} type="file" accept=".jpg,.jpeg,.png,image/jpeg,image/png" style={{ display: 'none' }} onChange={(e) => picked(e, 'size_chart')} data-testid="size-chart-input" />
        <Button onClick={() => chartInput.current?.click()}>{t(chart ? 'products:photos.replaceSizeChart' : 'products:photos.addSizeChart')}</Button>
        {chart ? (
          <Space>
            <img src={chart.src} alt="" width={48} height={48} style={{ objectFit: 'contain' }} data-testid="size-chart" />
            <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('common:actions.delete')} onClick={props.onDeleteChart} />
          </Space>
        ) : null}
      </Space>
    </Card>
  );
}

/** Photos of a saved product: every change is sent at once. */
export function PhotosCard({ productId, photos, sizeChart }: { productId: number; photos: PhotoBody[]; sizeChart?: PhotoBody | null }) {
  const { t } = useTranslation(['products', 'common']);
  const [add, { isLoading: adding }] = useAddPhotoFilesMutation();
  const [reorder] = useReorderPhotosMutation();
  const [remove] = useDeletePhotoMutation();
  const { data: rules = DEFAULT_PHOTO_RULES } = usePhotoRulesQuery();
  const [problem, setProblem] = useState<string | null>(null);

  const upload = async (files: File[], kind: Kind) => {
    setProblem(null);
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

  return (
    <PhotoFrame
      tiles={photos.map((p) => ({ key: p.id, src: `${p.url}?size=120` }))}
      chart={sizeChart ? { key: sizeChart.id, src: `${sizeChart.url}?size=48` } : null}
      rules={rules}
      problem={problem}
      busy={adding}
      deletable={canDeletePhoto(photos.length, rules)}
      onFiles={(files, kind) => void upload(files, kind)}
      onMove={(from, to) => void reorder({ id: productId, photoOrderInput: { ids: moved(photos.map((p) => p.id), from, to) } })}
      onDelete={(key) => void removePhoto(key)}
      onDeleteChart={() => sizeChart && void remove({ id: productId, photoId: sizeChart.id })}
    />
  );
}

/** Pictures chosen for a product not saved yet; the form uploads them once it is created. */
export interface PhotoDraft {
  photos: { key: number; file: File; url: string }[];
  sizeChart: { file: File; url: string } | null;
}

export const EMPTY_DRAFT: PhotoDraft = { photos: [], sizeChart: null };

let nextKey = 1;

/** Photos of a product being created: kept in the page (with previews) until it is saved. */
export function DraftPhotosCard({ draft, onChange }: { draft: PhotoDraft; onChange: (next: PhotoDraft) => void }) {
  const { t } = useTranslation(['products']);
  const { data: rules = DEFAULT_PHOTO_RULES } = usePhotoRulesQuery();
  const [problem, setProblem] = useState<string | null>(null);
  // Previews are object URLs: give them back when the page goes.
  const urls = useRef(new Set<string>());
  useEffect(() => {
    const held = urls.current;
    return () => held.forEach((u) => URL.revokeObjectURL(u));
  }, []);
  const preview = (file: File) => {
    const url = URL.createObjectURL(file);
    urls.current.add(url);
    return url;
  };
  const forget = (url: string) => {
    URL.revokeObjectURL(url);
    urls.current.delete(url);
  };

  const choose = (files: File[], kind: Kind) => {
    setProblem(null);
    if (files.length === 0) return;
    const bad = checkPhotos(files, kind === 'photo' ? draft.photos.length : 0, rules);
    if (bad) {
      setProblem(bad);
      return;
    }
    if (kind === 'photo') {
      onChange({ ...draft, photos: [...draft.photos, ...files.map((file) => ({ key: nextKey++, file, url: preview(file) }))] });
    } else {
      if (draft.sizeChart) forget(draft.sizeChart.url);
      onChange({ ...draft, sizeChart: { file: files[0], url: preview(files[0]) } });
    }
  };

  const move = (from: number, to: number) => {
    const order = moved(draft.photos.map((p) => p.key), from, to);
    onChange({ ...draft, photos: order.map((k) => draft.photos.find((p) => p.key === k)!) });
  };

  const drop = (key: number) => {
    const gone = draft.photos.find((p) => p.key === key);
    if (gone) forget(gone.url);
    onChange({ ...draft, photos: draft.photos.filter((p) => p.key !== key) });
  };

  const dropChart = () => {
    if (draft.sizeChart) forget(draft.sizeChart.url);
    onChange({ ...draft, sizeChart: null });
  };

  return (
    <PhotoFrame
      tiles={draft.photos.map((p) => ({ key: p.key, src: p.url }))}
      chart={draft.sizeChart ? { key: 0, src: draft.sizeChart.url } : null}
      rules={rules}
      problem={problem}
      busy={false}
      deletable
      onFiles={choose}
      onMove={move}
      onDelete={drop}
      onDeleteChart={dropChart}
      extra={<Typography.Paragraph type="secondary">{t('products:photos.draftHint')}</Typography.Paragraph>}
    />
  );
}
