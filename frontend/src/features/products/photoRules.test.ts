import { canDeletePhoto, checkPhotos, DEFAULT_PHOTO_RULES, moved } from './photoRules';

describe('photo rules', () => {
  it('takes jpg, jpeg and png up to 5 MB, 9 per product', () => {
    expect(checkPhotos([{ name: 'a.JPG', size: 10, type: 'image/jpeg' }], 0)).toBeNull();
    expect(checkPhotos([{ name: 'a.gif', size: 10, type: 'image/gif' }], 0)).toBe('products:photos.errors.type');
    expect(checkPhotos([{ name: 'a.png', size: 5 * 1024 * 1024 + 1, type: 'image/png' }], 0)).toBe('products:photos.errors.type');
    expect(checkPhotos([{ name: 'a.png', size: 1, type: 'image/png' }], 9)).toBe('products:photos.errors.too_many');
  });

  it('follows the counts the server gives', () => {
    const rules = { ...DEFAULT_PHOTO_RULES, minPerProduct: 3, maxPerProduct: 5 };
    const file = { name: 'a.png', size: 1, type: 'image/png' };
    expect(checkPhotos([file, file], 3, rules)).toBeNull();
    expect(checkPhotos([file, file, file], 3, rules)).toBe('products:photos.errors.too_many');
    expect(canDeletePhoto(3, rules)).toBe(false);
    expect(canDeletePhoto(4, rules)).toBe(true);
    expect(canDeletePhoto(1)).toBe(false);
    expect(canDeletePhoto(2)).toBe(true);
  });

  it('moves a photo to another place', () => {
    expect(moved([1, 2, 3, 4], 4, 1)).toEqual([4, 1, 2, 3]);
    expect(moved([1, 2, 3, 4], 1, 3)).toEqual([2, 3, 1, 4]);
    expect(moved([1, 2, 3], 2, 2)).toEqual([1, 2, 3]);
  });
});
