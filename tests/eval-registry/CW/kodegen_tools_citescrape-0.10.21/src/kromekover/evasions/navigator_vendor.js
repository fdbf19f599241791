// Mock navigator vendor
Object.defineProperty(navigator, 'vendor', {
  get: () => 'Google Inc.'
});
