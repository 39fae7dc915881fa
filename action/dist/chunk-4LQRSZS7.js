#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  __commonJS,
  __require
} from "./chunk-3EADY6QU.js";

// node_modules/@resvg/resvg-js/js-binding.js
var require_js_binding = __commonJS({
  "node_modules/@resvg/resvg-js/js-binding.js"(exports, module) {
    "use strict";
    var { existsSync, readFileSync } = __require("fs");
    var { join } = __require("path");
    var { platform, arch } = process;
    var nativeBinding = null;
    var localFileExisted = false;
    var loadError = null;
    function isMusl() {
      if (!process.report || typeof process.report.getReport != "function") try {
        const e = __require("child_process").execSync("which ldd").toString().trim();
        return readFileSync(e, "utf8").includes("musl");
      } catch {
        return true;
      }
      else {
        const { glibcVersionRuntime: e } = process.report.getReport().header;
        return !e;
      }
    }
    switch (platform) {
      case "android":
        switch (arch) {
          case "arm64":
            localFileExisted = existsSync(join(__dirname, "resvgjs.android-arm64.node"));
            try {
              localFileExisted ? nativeBinding = __require("./resvgjs.android-arm64.node") : nativeBinding = __require("@resvg/resvg-js-android-arm64");
            } catch (e) {
              loadError = e;
            }
            break;
          case "arm":
            localFileExisted = existsSync(join(__dirname, "resvgjs.android-arm-eabi.node"));
            try {
              localFileExisted ? nativeBinding = __require("./resvgjs.android-arm-eabi.node") : nativeBinding = __require("@resvg/resvg-js-android-arm-eabi");
            } catch (e) {
              loadError = e;
            }
            break;
          default:
            throw new Error(`Unsupported architecture on Android ${arch}`);
        }
        break;
      case "win32":
        switch (arch) {
          case "x64":
            localFileExisted = existsSync(join(__dirname, "resvgjs.win32-x64-msvc.node"));
            try {
              localFileExisted ? nativeBinding = __require("./resvgjs.win32-x64-msvc.node") : nativeBinding = __require("@resvg/resvg-js-win32-x64-msvc");
            } catch (e) {
              loadError = e;
            }
            break;
          case "ia32":
            localFileExisted = existsSync(join(__dirname, "resvgjs.win32-ia32-msvc.node"));
            try {
              localFileExisted ? nativeBinding = __require("./resvgjs.win32-ia32-msvc.node") : nativeBinding = __require("@resvg/resvg-js-win32-ia32-msvc");
            } catch (e) {
              loadError = e;
            }
            break;
          case "arm64":
            localFileExisted = existsSync(join(__dirname, "resvgjs.win32-arm64-msvc.node"));
            try {
              localFileExisted ? nativeBinding = __require("./resvgjs.win32-arm64-msvc.node") : nativeBinding = __require("@resvg/resvg-js-win32-arm64-msvc");
            } catch (e) {
              loadError = e;
            }
            break;
          default:
            throw new Error(`Unsupported architecture on Windows: ${arch}`);
        }
        break;
      case "darwin":
        localFileExisted = existsSync(join(__dirname, "resvgjs.darwin-universal.node"));
        try {
          localFileExisted ? nativeBinding = __require("./resvgjs.darwin-universal.node") : nativeBinding = __require("@resvg/resvg-js-darwin-universal");
          break;
        } catch {
        }
        switch (arch) {
          case "x64":
            localFileExisted = existsSync(join(__dirname, "resvgjs.darwin-x64.node"));
            try {
              localFileExisted ? nativeBinding = __require("./resvgjs.darwin-x64.node") : nativeBinding = __require("@resvg/resvg-js-darwin-x64");
            } catch (e) {
              loadError = e;
            }
            break;
          case "arm64":
            localFileExisted = existsSync(join(__dirname, "resvgjs.darwin-arm64.node"));
            try {
              localFileExisted ? nativeBinding = __require("./resvgjs.darwin-arm64.node") : nativeBinding = __require("@resvg/resvg-js-darwin-arm64");
            } catch (e) {
              loadError = e;
            }
            break;
          default:
            throw new Error(`Unsupported architecture on macOS: ${arch}`);
        }
        break;
      case "freebsd":
        if (arch !== "x64") throw new Error(`Unsupported architecture on FreeBSD: ${arch}`);
        localFileExisted = existsSync(join(__dirname, "resvgjs.freebsd-x64.node"));
        try {
          localFileExisted ? nativeBinding = __require("./resvgjs.freebsd-x64.node") : nativeBinding = __require("@resvg/resvg-js-freebsd-x64");
        } catch (e) {
          loadError = e;
        }
        break;
      case "linux":
        switch (arch) {
          case "x64":
            if (isMusl()) {
              localFileExisted = existsSync(join(__dirname, "resvgjs.linux-x64-musl.node"));
              try {
                localFileExisted ? nativeBinding = __require("./resvgjs.linux-x64-musl.node") : nativeBinding = __require("@resvg/resvg-js-linux-x64-musl");
              } catch (e) {
                loadError = e;
              }
            } else {
              localFileExisted = existsSync(join(__dirname, "resvgjs.linux-x64-gnu.node"));
              try {
                localFileExisted ? nativeBinding = __require("./resvgjs.linux-x64-gnu.node") : nativeBinding = __require("./resvgjs.linux-x64-gnu.node");
              } catch (e) {
                loadError = e;
              }
            }
            break;
          case "arm64":
            if (isMusl()) {
              localFileExisted = existsSync(join(__dirname, "resvgjs.linux-arm64-musl.node"));
              try {
                localFileExisted ? nativeBinding = __require("./resvgjs.linux-arm64-musl.node") : nativeBinding = __require("@resvg/resvg-js-linux-arm64-musl");
              } catch (e) {
                loadError = e;
              }
            } else {
              localFileExisted = existsSync(join(__dirname, "resvgjs.linux-arm64-gnu.node"));
              try {
                localFileExisted ? nativeBinding = __require("./resvgjs.linux-arm64-gnu.node") : nativeBinding = __require("@resvg/resvg-js-linux-arm64-gnu");
              } catch (e) {
                loadError = e;
              }
            }
            break;
          case "arm":
            localFileExisted = existsSync(join(__dirname, "resvgjs.linux-arm-gnueabihf.node"));
            try {
              localFileExisted ? nativeBinding = __require("./resvgjs.linux-arm-gnueabihf.node") : nativeBinding = __require("@resvg/resvg-js-linux-arm-gnueabihf");
            } catch (e) {
              loadError = e;
            }
            break;
          case "riscv64":
            if (isMusl()) {
              localFileExisted = existsSync(join(__dirname, "resvgjs.linux-riscv64-musl.node"));
              try {
                localFileExisted ? nativeBinding = __require("./resvgjs.linux-riscv64-musl.node") : nativeBinding = __require("@resvg/resvg-js-linux-riscv64-musl");
              } catch (e) {
                loadError = e;
              }
            } else {
              localFileExisted = existsSync(join(__dirname, "resvgjs.linux-riscv64-gnu.node"));
              try {
                localFileExisted ? nativeBinding = __require("./resvgjs.linux-riscv64-gnu.node") : nativeBinding = __require("@resvg/resvg-js-linux-riscv64-gnu");
              } catch (e) {
                loadError = e;
              }
            }
            break;
          case "s390x":
            localFileExisted = existsSync(join(__dirname, "resvgjs.linux-s390x-gnu.node"));
            try {
              localFileExisted ? nativeBinding = __require("./resvgjs.linux-s390x-gnu.node") : nativeBinding = __require("@resvg/resvg-js-linux-s390x-gnu");
            } catch (e) {
              loadError = e;
            }
            break;
          default:
            throw new Error(`Unsupported architecture on Linux: ${arch}`);
        }
        break;
      default:
        throw new Error(`Unsupported OS: ${platform}, architecture: ${arch}`);
    }
    if (!nativeBinding) throw loadError || new Error("Failed to load native binding");
    var { BBox, Resvg, RenderedImage, renderAsync } = nativeBinding;
    module.exports.BBox = BBox, module.exports.Resvg = Resvg, module.exports.RenderedImage = RenderedImage, module.exports.renderAsync = renderAsync;
  }
});

// node_modules/@resvg/resvg-js/index.js
var require_resvg_js = __commonJS({
  "node_modules/@resvg/resvg-js/index.js"(exports, module) {
    var { render: _render, renderAsync: _renderAsync, Resvg: _Resvg } = require_js_binding();
    module.exports.render = function render(svg, options) {
      if (options) {
        return _render(svg, JSON.stringify(options));
      }
      return _render(svg);
    };
    module.exports.renderAsync = function renderAsync(svg, options, signal) {
      if (options) {
        return _renderAsync(svg, JSON.stringify(options), signal);
      }
      return _renderAsync(svg, null, signal);
    };
    module.exports.Resvg = class Resvg extends _Resvg {
      constructor(svg, options) {
        super(svg, JSON.stringify(options));
      }
    };
  }
});
export default require_resvg_js();
