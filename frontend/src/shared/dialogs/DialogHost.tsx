import { useEffect, useState } from 'react';
import { Button, Modal, Space, Typography } from 'antd';
import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  InfoCircleFilled,
  QuestionCircleFilled,
  StopFilled,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { CONFIRM_COLOURS, hasCancel, subscribeDialogs, type DialogKind, type OpenDialog } from './dialogs';

const ICON: Record<DialogKind, React.ReactNode> = {
  warning: <ExclamationCircleFilled style={{ color: '#d4380d' }} />,
  error: <CloseCircleFilled style={{ color: '#cf1322' }} />,
  success: <CheckCircleFilled style={{ color: '#389e0d' }} />,
  question: <QuestionCircleFilled style={{ color: '#0b2545' }} />,
  permission: <StopFilled style={{ color: '#d48806' }} />,
  void: <ExclamationCircleFilled style={{ color: '#d48806' }} />,
  info: <InfoCircleFilled style={{ color: '#0b2545' }} />,
};

export function DialogHost() {
  const { t } = useTranslation('common');
  const [dialogs, setDialogs] = useState<OpenDialog[]>([]);
  useEffect(() => subscribeDialogs(setDialogs), []);
  const d = dialogs[0];
  if (!d) return null;
  return (
    <Modal open centered closable={false} mask={{ closable: false }} footer={null} width={420}>
      <div className="bo-dialog" data-testid={`dialog-${d.kind}`} role="alertdialog" aria-labelledby="bo-dialog-title">
        <div className="bo-dialog-icon">{ICON[d.kind]}</div>
        <Typography.Title level={4} id="bo-dialog-title" data-testid="dialog-title">
          {t(d.title, d.values)}
        </Typography.Title>
        <Typography.Paragraph data-testid="dialog-message">{t(d.message, d.values)}</Typography.Paragraph>
        <Space>
          {hasCancel(d) ? (
            <Button onClick={() => d.resolve(false)} data-testid="dialog-cancel">
              {t('dialog.cancel')}
            </Button>
          ) : null}
          <Button
            type="primary"
            data-testid="dialog-ok"
            style={{ background: CONFIRM_COLOURS[d.kind], borderColor: CONFIRM_COLOURS[d.kind] }}
            onClick={() => d.resolve(true)}
          >
            {t(d.confirm ?? 'dialog.ok')}
          </Button>
        </Space>
      </div>
    </Modal>
  );
}
