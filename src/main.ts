import './compile-cache.js';

// loaded once the compile cache is on (a static import would load it first)
await import('./server.js');
