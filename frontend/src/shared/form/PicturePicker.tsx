import { useRef } from 'react';
import { Button, Image, Space, Typography } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { checkPicture, PICTURE_ACCEPT } from './picture';

interface Props {
  /** What is shown now: the kept picture's URL, or a chosen file's preview. */
  src?: string;
  /** A file was chosen (already checked for type and size). */
  onPick: (file: File) => void;
  /** Takes the picture out; no button without it. */
  onRemove?: () => void;
  /** A translated message when a chosen file breaks a rule. */
  onRefuse: (message: string) => void;
  disabled?: boolean;
  busy?: boolean;
  /** Preview box size in pixels. */
  height?: number;
  testId: string;
}

/** One picture: its preview, a button to choose another (.jpg, .jpeg, .png, 5 MB) and one to
 * take it out. */
export function PicturePicker({ src, onPick, onRemove, onRefuse, disabled, busy, height = 96, testId }: Props) {
  const { t } = useTranslation('common');
  const input = useRef<HTMLInputElement>(null);
  const picked = (e: React.ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const refused = checkPicture(file);
    if (refused) onRefuse(t(refused));
    else onPick(file);
  };
  return (
    <Space align="start" size="middle" data-testid={testId}>
      <div className="bo-picture-box" style={{ height, minWidth: height }}>
        {src ? (
          <Image src={src} height={height} style={{ objectFit: 'contain' }} preview={false} alt="" data-testid={`${testId}-preview`} />
        ) : (
          <Typography.Text type="secondary">{t('picture.none')}</Typography.Text>
        )}
      </div>
      <Space orientation="vertical">
        <input ref={input} type="file" accept={PICTURE_ACCEPT} style={{ display: 'none' }} onChange={picked} data-testid={`${testId}-input`} />
        <Button icon={<UploadOutlined />} disabled={disabled} loading={busy} onClick={() => input.current?.click()}>
          {t(src ? 'picture.change' : 'picture.choose')}
        </Button>
        {src && onRemove ? (
          <Button icon={<DeleteOutlined />} danger disabled={disabled || busy} onClick={onRemove} data-testid={`${testId}-remove`}>
            {t('picture.remove')}
          </Button>
        ) : null}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('picture.rules')}
        </Typography.Text>
      </Space>
    </Space>
  );
}
