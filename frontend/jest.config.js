module.exports = {
  testEnvironment: '<rootDir>/jest.env.js',
  roots: ['<rootDir>/src'],
  transform: {
    '^.+\\.[tj]sx?$': ['ts-jest', { tsconfig: { jsx: 'react-jsx', allowJs: true, isolatedModules: true } }],
  },
  // antd's colour helpers ship ES modules only.
  transformIgnorePatterns: ['/node_modules/(?!(@ant-design/colors|@ant-design/fast-color)/)'],
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },
  setupFilesAfterEnv: ['<rootDir>/src/setupTests.ts'],
  // The suite runs beside the Rust suites on two cores: a form of antd may take seconds to
  // render there (a role test once took over 30 s beside them), which says nothing about the app.
  testTimeout: 60000,
  // Two workers even on two cores (jest would take one), each restarted once it has grown:
  // jsdom and antd leave memory behind, and a grown worker slows every suite after it.
  maxWorkers: 2,
  workerIdleMemoryLimit: '600MB',
};
