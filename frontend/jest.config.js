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
};
