import { fireEvent, render, screen } from '@testing-library/react';
import { Button, Form, Input, type FormInstance } from 'antd';
import i18n, { type TFunction } from 'i18next';

import { formField, serverFieldErrors, showServerErrors } from './serverErrors';

// A refusal as the base query hands it over: the status and the decoded body.
const refusal = (code: string, fields?: { field: string; code: string }[]) => ({
  status: 422,
  data: { error: { code, messageKey: `error.${code}`, message: code, fields } },
});

// Translates to the first key of a list, so the test sees which keys were tried.
const t = ((k: string | string[]) => (Array.isArray(k) ? k.join('|') : k)) as unknown as TFunction;

describe('server refusals on a form', () => {
  it('turns snake_case fields into the form\'s camelCase, once per field', () => {
    expect(formField('base_unit')).toBe('baseUnit');
    const errors = serverFieldErrors(
      refusal('validation_failed', [
        { field: 'quantity', code: 'validation.quantity' },
        { field: 'base_unit', code: 'validation.unit_type' },
        { field: 'quantity', code: 'validation.required' },
      ]),
      t,
      { ns: 'settings' },
    );
    expect(errors).toEqual([
      { name: 'quantity', errors: ['settings:validation.quantity|common:validation.quantity'] },
      { name: 'baseUnit', errors: ['settings:validation.unit_type|common:validation.unit_type'] },
    ]);
  });

  it('reads a refusal\'s code under a field from the feature\'s errors', () => {
    const errors = serverFieldErrors(refusal('validation_failed', [{ field: 'api_key', code: 'carrier_auth_failed' }]), t, { ns: 'logistics' });
    expect(errors).toEqual([{ name: 'apiKey', errors: ['logistics:carrier_auth_failed|logistics:errors.carrier_auth_failed|common:carrier_auth_failed'] }]);
  });

  it('puts a refusal that belongs to one field under it, with its own message', () => {
    const opts = { codes: { customer_phone_duplicate: { field: 'tel', message: 'customers:errors.customer_phone_duplicate' } } };
    expect(serverFieldErrors(refusal('customer_phone_duplicate'), t, opts)).toEqual([
      { name: 'tel', errors: ['customers:errors.customer_phone_duplicate'] },
    ]);
  });

  it('renames and keeps only the form\'s fields', () => {
    const errors = serverFieldErrors(
      refusal('validation_failed', [
        { field: 'delta', code: 'validation.quantity' },
        { field: 'skus[0].price', code: 'validation.money' },
      ]),
      t,
      { rename: { delta: 'quantity' }, only: ['quantity'] },
    );
    expect(errors).toEqual([{ name: 'quantity', errors: ['common:validation.quantity'] }]);
  });

  it('leaves anything else to the screen', () => {
    const form = { setFields: jest.fn() } as unknown as FormInstance;
    expect(showServerErrors(refusal('forbidden'), form, t)).toBe(false);
    expect(showServerErrors({ status: 'FETCH_ERROR', error: 'down' }, form, t)).toBe(false);
    expect(form.setFields).not.toHaveBeenCalled();
    expect(showServerErrors(refusal('validation_failed', [{ field: 'name', code: 'validation.required' }]), form, t)).toBe(true);
    expect(form.setFields).toHaveBeenCalledWith([{ name: 'name', errors: ['common:validation.required'] }]);
  });

  it('shows the messages under the fields of a rendered form', async () => {
    const opts = { codes: { customer_phone_duplicate: { field: 'tel', message: 'customers:errors.customer_phone_duplicate' } } };
    function Probe({ err }: { err: unknown }) {
      const [form] = Form.useForm();
      return (
        <Form form={form}>
          <Form.Item name="name" label="Name">
            <Input />
          </Form.Item>
          <Form.Item name="tel" label="Phone">
            <Input />
          </Form.Item>
          <Button onClick={() => showServerErrors(err, form, i18n.t, opts)}>go</Button>
        </Form>
      );
    }
    const { unmount } = render(<Probe err={refusal('validation_failed', [{ field: 'name', code: 'validation.required' }])} />);
    fireEvent.click(screen.getByRole('button'));
    expect((await screen.findByText('This field is required')).closest('.ant-form-item')).toHaveTextContent('Name');
    unmount();
    render(<Probe err={refusal('customer_phone_duplicate')} />);
    fireEvent.click(screen.getByRole('button'));
    expect((await screen.findByText('This phone number already exists, please edit')).closest('.ant-form-item')).toHaveTextContent('Phone');
  });
});
