/**
 * dependency-cruiser parses TypeScript through the `typescript` package's JavaScript API, which
 * TypeScript 7 (the project's compiler, a native binary) no longer has. Loaded with
 * `node --import`, this points dependency-cruiser, and only it, at TypeScript 5
 * (the `typescript-5` alias in devDependencies) for both the ESM import and the CommonJS
 * require (of its package.json, for the version check) that it uses.
 */
import Module, { register } from 'node:module';

const isCruiser = (parent) =>
  typeof parent === 'string' && parent.includes('/node_modules/dependency-cruiser/');
const alias = (request) => request.replace(/^typescript(?=$|\/)/, 'typescript-5');

register(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      const fromCruiser = (context.parentURL ?? '').includes('/node_modules/dependency-cruiser/');
      if (fromCruiser && /^typescript(\\/|$)/.test(specifier))
        return next(specifier.replace(/^typescript/, 'typescript-5'), context);
      return next(specifier, context);
    }
  `)}`,
);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const target = isCruiser(parent?.filename) ? alias(request) : request;
  return resolveFilename.call(this, target, parent, ...rest);
};
