// Runs the @nestjs/swagger CLI plugin under ts-jest, as `nest build` does. The plugin is loaded on the first file
// compiled, not with the transformer: a Jest worker whose files all come from the cache never needs it.
let plugin;

module.exports = {
  name: 'nestjs-swagger-transformer',
  version: 1,
  factory: (compiler) => {
    plugin ??= require('@nestjs/swagger/plugin');
    return plugin.before({ classValidatorShim: true, introspectComments: true, dtoFileNameSuffix: ['.dto.ts'] }, compiler.program);
  },
};
