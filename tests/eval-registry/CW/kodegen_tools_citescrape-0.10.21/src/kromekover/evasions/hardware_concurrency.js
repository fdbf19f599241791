Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => window.grokConfig.hardwareConcurrency });
