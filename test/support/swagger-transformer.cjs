// Runs the @nestjs/swagger CLI plugin under ts-jest, as `nest build` does.
const plugin = require('@nestjs/swagger/plugin');

module.exports = {
  name: 'nestjs-swagger-transformer',
  version: 1,
  factory: (compiler) =>
    plugin.before(
      { classValidatorShim: true, introspectComments: true, dtoFileNameSuffix: ['.dto.ts'] },
      compiler.program,
    ),
};
