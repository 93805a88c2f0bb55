// jsdom, plus the fetch API of Node (RTK Query's fetchBaseQuery needs Request and Response).
const JsdomEnvironment = require('jest-environment-jsdom').TestEnvironment;

class Environment extends JsdomEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of ['fetch', 'Request', 'Response', 'Headers', 'AbortController', 'AbortSignal', 'TextEncoder', 'TextDecoder', 'ReadableStream', 'structuredClone']) {
      if (globalThis[name]) this.global[name] = globalThis[name];
    }
  }
}

module.exports = Environment;
