import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';

import { serveBy } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';
import { DefaultLayout } from './Layouts';
import { atWidth } from '@/shared/testing/viewport';


function HalfFilled() {
  const [v, setV] = useState('');
  return <input data-testid="page-field" value={v} onChange={(e) => setV(e.target.value)} />;
}


it('keeps the page, and what was typed in it, when the window crosses the mobile breakpoint', async () => {
  serveBy(() => ({ status: 200, body: { menu_hiding_list: [] } }));
  atWidth(1280);
  render(
    <Provider store={signedInStore()}>
      <MemoryRouter initialEntries={['/1/page']}>
        <Routes>
          <Route path="/:storeId" element={<DefaultLayout />}>
            <Route path="page" element={<HalfFilled />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  expect(document.querySelector('[data-layout="default-desktop"]')).not.toBeNull();
  fireEvent.change(screen.getByTestId('page-field'), { target: { value: 'ร้านป้าแดง' } });
  atWidth(500);
  expect(document.querySelector('[data-layout="default-mobile"]')).not.toBeNull();
  expect(screen.getByTestId('mobile-menu')).toBeInTheDocument();
  expect(screen.getByTestId('page-field')).toHaveValue('ร้านป้าแดง');
  atWidth(1280);
  expect(document.querySelector('[data-layout="default-desktop"]')).not.toBeNull();
  expect(screen.getByTestId('page-field')).toHaveValue('ร้านป้าแดง');
});
