import { useEffect, useState } from 'react';
import { Button, Card, Col, Form, Input, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';

import { globalErrorKind } from '@/app/api/errors';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { PicturePicker } from '@/shared/form/PicturePicker';
import { serverFieldErrors, showServerErrors } from '@/shared/form/serverErrors';
import { useCheck } from '@/shared/form/useCheck';
import { useCan } from '@/shared/useCan';
import { useListBranchesQuery } from '@/features/pos/api';
import { useGetStoreQuery } from '@/features/store/api';
import { useGetReceiptQuery, useRemoveReceiptPictureMutation, useSetReceiptPictureFileMutation, useSetReceiptTextMutation } from './api';
import { baht, checkFooterText, FOOTER_TEXT_MAX, lineAmount, SAMPLE_LINES, total } from './receipt';
import { SETTINGS_EDIT } from './routes';

interface PreviewProps {
  storeName: string;
  address: string;
  tel: string;
  vatIncluded: boolean;
  branch?: { branchNo: string; name: string; taxId: string; isMain: boolean };
  header?: string;
  footer?: string;
  footerText: string;
}

/** A receipt as a till prints it: in Thai whatever the screen's language (its wording is the
 * `th` translation of `settings:receiptPrint`). */
function ReceiptPreview({ storeName, address, tel, vatIncluded, branch, header, footer, footerText }: PreviewProps) {
  const { i18n } = useTranslation();
  const p = i18n.getFixedT('th', 'settings', 'receiptPrint');
  const now = new Date().toLocaleString('th-TH', { dateStyle: 'short', timeStyle: 'short' });
  return (
    <div className="bo-receipt" data-testid="receipt-preview" lang="th">
      {header ? <img src={header} alt="" data-testid="receipt-preview-header" /> : null}
      <div className="bo-receipt-center">
        <strong>{storeName}</strong>
        {branch ? <div data-testid="receipt-preview-branch">{p(branch.isMain ? 'mainBranch' : 'branch', { no: branch.branchNo, name: branch.name })}</div> : null}
        {address ? <div>{address}</div> : null}
        {tel ? <div>{p('tel', { tel })}</div> : null}
        {branch ? <div>{p('taxId', { taxId: branch.taxId })}</div> : null}
        <div>{p('title')}</div>
      </div>
      <div className="bo-receipt-rule" />
      <div className="bo-receipt-row">
        <span>{p('number', { no: p('sampleNo') })}</span>
        <span>{now}</span>
      </div>
      <div className="bo-receipt-rule" />
      {SAMPLE_LINES.map((l) => (
        <div key={l.name}>
          <div>{l.name}</div>
          <div className="bo-receipt-row">
            <span>{p('line', { quantity: l.quantity, price: baht(l.price) })}</span>
            <span>{baht(lineAmount(l))}</span>
          </div>
        </div>
      ))}
      <div className="bo-receipt-rule" />
      <div className="bo-receipt-row">
        <strong>{p('total')}</strong>
        <strong data-testid="receipt-preview-total">{p('amount', { amount: baht(total(SAMPLE_LINES)) })}</strong>
      </div>
      {vatIncluded ? <div className="bo-receipt-center">{p('vatIncluded')}</div> : null}
      {footerText ? (
        <div className="bo-receipt-footer" data-testid="receipt-preview-text">
          {footerText}
        </div>
      ) : null}
      {footer ? <img src={footer} alt="" style={{ marginTop: 8 }} data-testid="receipt-preview-footer" /> : null}
    </div>
  );
}

/** /setting/receipt: the pictures at the head and foot of a receipt and its footer text, with a
 * receipt in Thai that follows every change before it is saved. */
export default function ReceiptSettingsPage() {
  const { t } = useTranslation(['settings', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const { data, isLoading } = useGetReceiptQuery({ id });
  const { data: store } = useGetStoreQuery({ id });
  const { data: branches } = useListBranchesQuery({ id });
  // The receipt shows the head office when there is one, else the first branch.
  const branch = branches?.data.find((b) => b.isMain) ?? branches?.data[0];
  const [saveText, { isLoading: saving }] = useSetReceiptTextMutation();
  const [upload] = useSetReceiptPictureFileMutation();
  const [remove] = useRemoveReceiptPictureMutation();
  const [busy, setBusy] = useState<'header' | 'footer' | null>(null);
  const [pictureError, setPictureError] = useState<{ header?: string; footer?: string }>({});
  const canEdit = useCan(SETTINGS_EDIT);
  const [form] = Form.useForm<{ footerText: string }>();
  const footerText = Form.useWatch('footerText', form) ?? data?.footerText ?? '';
  const rule = useCheck();

  useEffect(() => {
    if (data) form.setFieldsValue({ footerText: data.footerText });
  }, [data, form]);

  const submit = async (v: { footerText: string }) => {
    try {
      await saveText({ id, receiptTextInput: { footerText: v.footerText ?? '' } }).unwrap();
      notifySuccess(t('settings:receipt.saved'));
    } catch (e) {
      if (!showServerErrors(e, form, t, { ns: 'settings' }) && !globalErrorKind(e as Parameters<typeof globalErrorKind>[0])) {
        notifyError(t('settings:receipt.failed'));
      }
    }
  };

  const pick = async (slot: 'header' | 'footer', file: File) => {
    setBusy(slot);
    setPictureError((p) => ({ ...p, [slot]: undefined }));
    try {
      await upload({ id, slot, file }).unwrap();
      notifySuccess(t('settings:receipt.pictureSaved'));
    } catch (e) {
      const shown = serverFieldErrors(e, t, { ns: 'settings' })[0]?.errors[0];
      if (shown) setPictureError((p) => ({ ...p, [slot]: shown }));
      else if (!globalErrorKind(e as Parameters<typeof globalErrorKind>[0])) notifyError(t('settings:receipt.failed'));
    } finally {
      setBusy(null);
    }
  };

  const drop = async (slot: 'header' | 'footer') => {
    setBusy(slot);
    try {
      await remove({ id, slot }).unwrap();
    } catch (e) {
      if (!globalErrorKind(e as Parameters<typeof globalErrorKind>[0])) notifyError(t('settings:receipt.failed'));
    } finally {
      setBusy(null);
    }
  };

  const address = store ? [store.address, store.subDistrict, store.district, store.province, store.postcode].filter(Boolean).join(' ') : '';
  const picture = (slot: 'header' | 'footer', src: string | undefined) => (
    <Form.Item label={t(`settings:receipt.${slot}Photo`)} validateStatus={pictureError[slot] ? 'error' : undefined} help={pictureError[slot]}>
      <PicturePicker
        src={src || undefined}
        onPick={(f) => void pick(slot, f)}
        onRemove={canEdit ? () => void drop(slot) : undefined}
        onRefuse={(m) => setPictureError((p) => ({ ...p, [slot]: m }))}
        disabled={!canEdit}
        busy={busy === slot}
        testId={`receipt-${slot}`}
      />
    </Form.Item>
  );

  return (
    <Card loading={isLoading} data-testid="receipt-settings">
      <div className="bo-page-head">
        <h1>{t('settings:receipt.title')}</h1>
      </div>
      <Typography.Paragraph type="secondary">{t('settings:receipt.hint')}</Typography.Paragraph>
      <Row gutter={[32, 24]}>
        <Col xs={24} lg={13}>
          <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} disabled={!canEdit} data-testid="receipt-form">
            {picture('header', data?.headerPhotoUrl)}
            {picture('footer', data?.footerPhotoUrl)}
            <Form.Item name="footerText" label={t('settings:receipt.footerText')} rules={[rule((v) => checkFooterText(v))]} extra={t('settings:receipt.footerTextHint')}>
              <Input.TextArea rows={4} maxLength={FOOTER_TEXT_MAX} showCount placeholder={t('settings:receipt.footerTextPlaceholder')} data-testid="field-footer-text" />
            </Form.Item>
            {canEdit ? (
              <Space>
                <Button type="primary" htmlType="submit" loading={saving} data-testid="receipt-save">
                  {t('common:actions.save')}
                </Button>
              </Space>
            ) : (
              <Typography.Text type="secondary">{t('settings:receipt.readOnly')}</Typography.Text>
            )}
          </Form>
        </Col>
        <Col xs={24} lg={11}>
          <Typography.Title level={5}>{t('settings:receipt.preview')}</Typography.Title>
          <ReceiptPreview
            storeName={store?.name ?? ''}
            address={address}
            tel={store?.tel ?? ''}
            vatIncluded={store?.vatIncluded ?? false}
            branch={branch}
            header={data?.headerPhotoUrl || undefined}
            footer={data?.footerPhotoUrl || undefined}
            footerText={footerText}
          />
        </Col>
      </Row>
    </Card>
  );
}
