#!/usr/bin/env node
import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';
const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);
import {
  CLOUDS,
  CloudStack,
  KUBERNETES_CLOUDS,
  alive,
  checkBudget,
  cloudOf,
  estimateCost,
  estimateText,
  measuredCost,
  onTeardown,
  outlivesTtl,
  provisionCluster,
  record,
  recordStack,
  remoteCommand,
  shellCommand,
  shellQuote,
  sshArgs,
  stackOptions,
  stackRecord,
  tagsNow
} from "./chunk-3RZOPWDC.js";
import {
  durationSchema,
  external_exports,
  forwardIssues,
  parseAge,
  parseDuration,
  tagsOf,
  variantAt
} from "./chunk-WCKSSEMK.js";
import {
  BuildFailed,
  InputError,
  MYSQL_CLIENTS,
  RunError,
  WriteError,
  anyTool,
  childEnv,
  errnoText,
  findTool,
  firstTool,
  inherited,
  parents,
  parseStat,
  procStat,
  processState,
  runCommand,
  setting,
  startServerProcess,
  treeOf
} from "./chunk-KJWZ2OYQ.js";
import {
  __commonJS,
  __require,
  __toESM
} from "./chunk-3EADY6QU.js";

// node_modules/yaml/dist/nodes/identity.js
var require_identity = __commonJS({
  "node_modules/yaml/dist/nodes/identity.js"(exports) {
    "use strict";
    var ALIAS = /* @__PURE__ */ Symbol.for("yaml.alias");
    var DOC = /* @__PURE__ */ Symbol.for("yaml.document");
    var MAP = /* @__PURE__ */ Symbol.for("yaml.map");
    var PAIR = /* @__PURE__ */ Symbol.for("yaml.pair");
    var SCALAR = /* @__PURE__ */ Symbol.for("yaml.scalar");
    var SEQ = /* @__PURE__ */ Symbol.for("yaml.seq");
    var NODE_TYPE = /* @__PURE__ */ Symbol.for("yaml.node.type");
    var isAlias = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === ALIAS;
    var isDocument = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === DOC;
    var isMap2 = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === MAP;
    var isPair = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === PAIR;
    var isScalar2 = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === SCALAR;
    var isSeq2 = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === SEQ;
    function isCollection(node) {
      if (node && typeof node === "object")
        switch (node[NODE_TYPE]) {
          case MAP:
          case SEQ:
            return true;
        }
      return false;
    }
    function isNode(node) {
      if (node && typeof node === "object")
        switch (node[NODE_TYPE]) {
          case ALIAS:
          case MAP:
          case SCALAR:
          case SEQ:
            return true;
        }
      return false;
    }
    var hasAnchor = (node) => (isScalar2(node) || isCollection(node)) && !!node.anchor;
    exports.ALIAS = ALIAS;
    exports.DOC = DOC;
    exports.MAP = MAP;
    exports.NODE_TYPE = NODE_TYPE;
    exports.PAIR = PAIR;
    exports.SCALAR = SCALAR;
    exports.SEQ = SEQ;
    exports.hasAnchor = hasAnchor;
    exports.isAlias = isAlias;
    exports.isCollection = isCollection;
    exports.isDocument = isDocument;
    exports.isMap = isMap2;
    exports.isNode = isNode;
    exports.isPair = isPair;
    exports.isScalar = isScalar2;
    exports.isSeq = isSeq2;
  }
});

// node_modules/yaml/dist/visit.js
var require_visit = __commonJS({
  "node_modules/yaml/dist/visit.js"(exports) {
    "use strict";
    var identity = require_identity();
    var BREAK = /* @__PURE__ */ Symbol("break visit");
    var SKIP = /* @__PURE__ */ Symbol("skip children");
    var REMOVE = /* @__PURE__ */ Symbol("remove node");
    function visit(node, visitor) {
      const visitor_ = initVisitor(visitor);
      if (identity.isDocument(node)) {
        const cd = visit_(null, node.contents, visitor_, Object.freeze([node]));
        if (cd === REMOVE)
          node.contents = null;
      } else
        visit_(null, node, visitor_, Object.freeze([]));
    }
    visit.BREAK = BREAK;
    visit.SKIP = SKIP;
    visit.REMOVE = REMOVE;
    function visit_(key, node, visitor, path) {
      const ctrl = callVisitor(key, node, visitor, path);
      if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path, ctrl);
        return visit_(key, ctrl, visitor, path);
      }
      if (typeof ctrl !== "symbol") {
        if (identity.isCollection(node)) {
          path = Object.freeze(path.concat(node));
          for (let i = 0; i < node.items.length; ++i) {
            const ci = visit_(i, node.items[i], visitor, path);
            if (typeof ci === "number")
              i = ci - 1;
            else if (ci === BREAK)
              return BREAK;
            else if (ci === REMOVE) {
              node.items.splice(i, 1);
              i -= 1;
            }
          }
        } else if (identity.isPair(node)) {
          path = Object.freeze(path.concat(node));
          const ck = visit_("key", node.key, visitor, path);
          if (ck === BREAK)
            return BREAK;
          else if (ck === REMOVE)
            node.key = null;
          const cv = visit_("value", node.value, visitor, path);
          if (cv === BREAK)
            return BREAK;
          else if (cv === REMOVE)
            node.value = null;
        }
      }
      return ctrl;
    }
    async function visitAsync(node, visitor) {
      const visitor_ = initVisitor(visitor);
      if (identity.isDocument(node)) {
        const cd = await visitAsync_(null, node.contents, visitor_, Object.freeze([node]));
        if (cd === REMOVE)
          node.contents = null;
      } else
        await visitAsync_(null, node, visitor_, Object.freeze([]));
    }
    visitAsync.BREAK = BREAK;
    visitAsync.SKIP = SKIP;
    visitAsync.REMOVE = REMOVE;
    async function visitAsync_(key, node, visitor, path) {
      const ctrl = await callVisitor(key, node, visitor, path);
      if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path, ctrl);
        return visitAsync_(key, ctrl, visitor, path);
      }
      if (typeof ctrl !== "symbol") {
        if (identity.isCollection(node)) {
          path = Object.freeze(path.concat(node));
          for (let i = 0; i < node.items.length; ++i) {
            const ci = await visitAsync_(i, node.items[i], visitor, path);
            if (typeof ci === "number")
              i = ci - 1;
            else if (ci === BREAK)
              return BREAK;
            else if (ci === REMOVE) {
              node.items.splice(i, 1);
              i -= 1;
            }
          }
        } else if (identity.isPair(node)) {
          path = Object.freeze(path.concat(node));
          const ck = await visitAsync_("key", node.key, visitor, path);
          if (ck === BREAK)
            return BREAK;
          else if (ck === REMOVE)
            node.key = null;
          const cv = await visitAsync_("value", node.value, visitor, path);
          if (cv === BREAK)
            return BREAK;
          else if (cv === REMOVE)
            node.value = null;
        }
      }
      return ctrl;
    }
    function initVisitor(visitor) {
      if (typeof visitor === "object" && (visitor.Collection || visitor.Node || visitor.Value)) {
        return Object.assign({
          Alias: visitor.Node,
          Map: visitor.Node,
          Scalar: visitor.Node,
          Seq: visitor.Node
        }, visitor.Value && {
          Map: visitor.Value,
          Scalar: visitor.Value,
          Seq: visitor.Value
        }, visitor.Collection && {
          Map: visitor.Collection,
          Seq: visitor.Collection
        }, visitor);
      }
      return visitor;
    }
    function callVisitor(key, node, visitor, path) {
      if (typeof visitor === "function")
        return visitor(key, node, path);
      if (identity.isMap(node))
        return visitor.Map?.(key, node, path);
      if (identity.isSeq(node))
        return visitor.Seq?.(key, node, path);
      if (identity.isPair(node))
        return visitor.Pair?.(key, node, path);
      if (identity.isScalar(node))
        return visitor.Scalar?.(key, node, path);
      if (identity.isAlias(node))
        return visitor.Alias?.(key, node, path);
      return void 0;
    }
    function replaceNode(key, path, node) {
      const parent = path[path.length - 1];
      if (identity.isCollection(parent)) {
        parent.items[key] = node;
      } else if (identity.isPair(parent)) {
        if (key === "key")
          parent.key = node;
        else
          parent.value = node;
      } else if (identity.isDocument(parent)) {
        parent.contents = node;
      } else {
        const pt = identity.isAlias(parent) ? "alias" : "scalar";
        throw new Error(`Cannot replace node with ${pt} parent`);
      }
    }
    exports.visit = visit;
    exports.visitAsync = visitAsync;
  }
});

// node_modules/yaml/dist/doc/directives.js
var require_directives = __commonJS({
  "node_modules/yaml/dist/doc/directives.js"(exports) {
    "use strict";
    var identity = require_identity();
    var visit = require_visit();
    var escapeChars = {
      "!": "%21",
      ",": "%2C",
      "[": "%5B",
      "]": "%5D",
      "{": "%7B",
      "}": "%7D"
    };
    var escapeTagName = (tn) => tn.replace(/[!,[\]{}]/g, (ch) => escapeChars[ch]);
    var Directives = class _Directives {
      constructor(yaml, tags) {
        this.docStart = null;
        this.docEnd = false;
        this.yaml = Object.assign({}, _Directives.defaultYaml, yaml);
        this.tags = Object.assign({}, _Directives.defaultTags, tags);
      }
      clone() {
        const copy = new _Directives(this.yaml, this.tags);
        copy.docStart = this.docStart;
        return copy;
      }
      /**
       * During parsing, get a Directives instance for the current document and
       * update the stream state according to the current version's spec.
       */
      atDocument() {
        const res = new _Directives(this.yaml, this.tags);
        switch (this.yaml.version) {
          case "1.1":
            this.atNextDocument = true;
            break;
          case "1.2":
            this.atNextDocument = false;
            this.yaml = {
              explicit: _Directives.defaultYaml.explicit,
              version: "1.2"
            };
            this.tags = Object.assign({}, _Directives.defaultTags);
            break;
        }
        return res;
      }
      /**
       * @param onError - May be called even if the action was successful
       * @returns `true` on success
       */
      add(line, onError) {
        if (this.atNextDocument) {
          this.yaml = { explicit: _Directives.defaultYaml.explicit, version: "1.1" };
          this.tags = Object.assign({}, _Directives.defaultTags);
          this.atNextDocument = false;
        }
        const parts2 = line.trim().split(/[ \t]+/);
        const name = parts2.shift();
        switch (name) {
          case "%TAG": {
            if (parts2.length !== 2) {
              onError(0, "%TAG directive should contain exactly two parts");
              if (parts2.length < 2)
                return false;
            }
            const [handle, prefix] = parts2;
            this.tags[handle] = prefix;
            return true;
          }
          case "%YAML": {
            this.yaml.explicit = true;
            if (parts2.length !== 1) {
              onError(0, "%YAML directive should contain exactly one part");
              return false;
            }
            const [version] = parts2;
            if (version === "1.1" || version === "1.2") {
              this.yaml.version = version;
              return true;
            } else {
              const isValid = /^\d+\.\d+$/.test(version);
              onError(6, `Unsupported YAML version ${version}`, isValid);
              return false;
            }
          }
          default:
            onError(0, `Unknown directive ${name}`, true);
            return false;
        }
      }
      /**
       * Resolves a tag, matching handles to those defined in %TAG directives.
       *
       * @returns Resolved tag, which may also be the non-specific tag `'!'` or a
       *   `'!local'` tag, or `null` if unresolvable.
       */
      tagName(source, onError) {
        if (source === "!")
          return "!";
        if (source[0] !== "!") {
          onError(`Not a valid tag: ${source}`);
          return null;
        }
        if (source[1] === "<") {
          const verbatim = source.slice(2, -1);
          if (verbatim === "!" || verbatim === "!!") {
            onError(`Verbatim tags aren't resolved, so ${source} is invalid.`);
            return null;
          }
          if (source[source.length - 1] !== ">")
            onError("Verbatim tags must end with a >");
          return verbatim;
        }
        const [, handle, suffix] = source.match(/^(.*!)([^!]*)$/s);
        if (!suffix)
          onError(`The ${source} tag has no suffix`);
        const prefix = this.tags[handle];
        if (prefix) {
          try {
            return prefix + decodeURIComponent(suffix);
          } catch (error) {
            onError(String(error));
            return null;
          }
        }
        if (handle === "!")
          return source;
        onError(`Could not resolve tag: ${source}`);
        return null;
      }
      /**
       * Given a fully resolved tag, returns its printable string form,
       * taking into account current tag prefixes and defaults.
       */
      tagString(tag) {
        for (const [handle, prefix] of Object.entries(this.tags)) {
          if (tag.startsWith(prefix))
            return handle + escapeTagName(tag.substring(prefix.length));
        }
        return tag[0] === "!" ? tag : `!<${tag}>`;
      }
      toString(doc) {
        const lines = this.yaml.explicit ? [`%YAML ${this.yaml.version || "1.2"}`] : [];
        const tagEntries = Object.entries(this.tags);
        let tagNames;
        if (doc && tagEntries.length > 0 && identity.isNode(doc.contents)) {
          const tags = {};
          visit.visit(doc.contents, (_key, node) => {
            if (identity.isNode(node) && node.tag)
              tags[node.tag] = true;
          });
          tagNames = Object.keys(tags);
        } else
          tagNames = [];
        for (const [handle, prefix] of tagEntries) {
          if (handle === "!!" && prefix === "tag:yaml.org,2002:")
            continue;
          if (!doc || tagNames.some((tn) => tn.startsWith(prefix)))
            lines.push(`%TAG ${handle} ${prefix}`);
        }
        return lines.join("\n");
      }
    };
    Directives.defaultYaml = { explicit: false, version: "1.2" };
    Directives.defaultTags = { "!!": "tag:yaml.org,2002:" };
    exports.Directives = Directives;
  }
});

// node_modules/yaml/dist/doc/anchors.js
var require_anchors = __commonJS({
  "node_modules/yaml/dist/doc/anchors.js"(exports) {
    "use strict";
    var identity = require_identity();
    var visit = require_visit();
    function anchorIsValid(anchor) {
      if (/[\x00-\x19\s,[\]{}]/.test(anchor)) {
        const sa = JSON.stringify(anchor);
        const msg = `Anchor must not contain whitespace or control characters: ${sa}`;
        throw new Error(msg);
      }
      return true;
    }
    function anchorNames(root) {
      const anchors = /* @__PURE__ */ new Set();
      visit.visit(root, {
        Value(_key, node) {
          if (node.anchor)
            anchors.add(node.anchor);
        }
      });
      return anchors;
    }
    function findNewAnchor(prefix, exclude) {
      for (let i = 1; true; ++i) {
        const name = `${prefix}${i}`;
        if (!exclude.has(name))
          return name;
      }
    }
    function createNodeAnchors(doc, prefix) {
      const aliasObjects = [];
      const sourceObjects = /* @__PURE__ */ new Map();
      let prevAnchors = null;
      return {
        onAnchor: (source) => {
          aliasObjects.push(source);
          prevAnchors ?? (prevAnchors = anchorNames(doc));
          const anchor = findNewAnchor(prefix, prevAnchors);
          prevAnchors.add(anchor);
          return anchor;
        },
        /**
         * With circular references, the source node is only resolved after all
         * of its child nodes are. This is why anchors are set only after all of
         * the nodes have been created.
         */
        setAnchors: () => {
          for (const source of aliasObjects) {
            const ref = sourceObjects.get(source);
            if (typeof ref === "object" && ref.anchor && (identity.isScalar(ref.node) || identity.isCollection(ref.node))) {
              ref.node.anchor = ref.anchor;
            } else {
              const error = new Error("Failed to resolve repeated object (this should not happen)");
              error.source = source;
              throw error;
            }
          }
        },
        sourceObjects
      };
    }
    exports.anchorIsValid = anchorIsValid;
    exports.anchorNames = anchorNames;
    exports.createNodeAnchors = createNodeAnchors;
    exports.findNewAnchor = findNewAnchor;
  }
});

// node_modules/yaml/dist/doc/applyReviver.js
var require_applyReviver = __commonJS({
  "node_modules/yaml/dist/doc/applyReviver.js"(exports) {
    "use strict";
    function applyReviver(reviver, obj, key, val) {
      if (val && typeof val === "object") {
        if (Array.isArray(val)) {
          for (let i = 0, len = val.length; i < len; ++i) {
            const v0 = val[i];
            const v1 = applyReviver(reviver, val, String(i), v0);
            if (v1 === void 0)
              delete val[i];
            else if (v1 !== v0)
              val[i] = v1;
          }
        } else if (val instanceof Map) {
          for (const k of Array.from(val.keys())) {
            const v0 = val.get(k);
            const v1 = applyReviver(reviver, val, k, v0);
            if (v1 === void 0)
              val.delete(k);
            else if (v1 !== v0)
              val.set(k, v1);
          }
        } else if (val instanceof Set) {
          for (const v0 of Array.from(val)) {
            const v1 = applyReviver(reviver, val, v0, v0);
            if (v1 === void 0)
              val.delete(v0);
            else if (v1 !== v0) {
              val.delete(v0);
              val.add(v1);
            }
          }
        } else {
          for (const [k, v0] of Object.entries(val)) {
            const v1 = applyReviver(reviver, val, k, v0);
            if (v1 === void 0)
              delete val[k];
            else if (v1 !== v0)
              val[k] = v1;
          }
        }
      }
      return reviver.call(obj, key, val);
    }
    exports.applyReviver = applyReviver;
  }
});

// node_modules/yaml/dist/nodes/toJS.js
var require_toJS = __commonJS({
  "node_modules/yaml/dist/nodes/toJS.js"(exports) {
    "use strict";
    var identity = require_identity();
    function toJS(value, arg, ctx) {
      if (Array.isArray(value))
        return value.map((v, i) => toJS(v, String(i), ctx));
      if (value && typeof value.toJSON === "function") {
        if (!ctx || !identity.hasAnchor(value))
          return value.toJSON(arg, ctx);
        const data = { aliasCount: 0, count: 1, res: void 0 };
        ctx.anchors.set(value, data);
        ctx.onCreate = (res2) => {
          data.res = res2;
          delete ctx.onCreate;
        };
        const res = value.toJSON(arg, ctx);
        if (ctx.onCreate)
          ctx.onCreate(res);
        return res;
      }
      if (typeof value === "bigint" && !ctx?.keep)
        return Number(value);
      return value;
    }
    exports.toJS = toJS;
  }
});

// node_modules/yaml/dist/nodes/Node.js
var require_Node = __commonJS({
  "node_modules/yaml/dist/nodes/Node.js"(exports) {
    "use strict";
    var applyReviver = require_applyReviver();
    var identity = require_identity();
    var toJS = require_toJS();
    var NodeBase = class {
      constructor(type) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: type });
      }
      /** Create a copy of this node.  */
      clone() {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (this.range)
          copy.range = this.range.slice();
        return copy;
      }
      /** A plain JavaScript representation of this node. */
      toJS(doc, { mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        if (!identity.isDocument(doc))
          throw new TypeError("A document argument is required");
        const ctx = {
          anchors: /* @__PURE__ */ new Map(),
          doc,
          keep: true,
          mapAsMap: mapAsMap === true,
          mapKeyWarned: false,
          maxAliasCount: typeof maxAliasCount === "number" ? maxAliasCount : 100
        };
        const res = toJS.toJS(this, "", ctx);
        if (typeof onAnchor === "function")
          for (const { count, res: res2 } of ctx.anchors.values())
            onAnchor(res2, count);
        return typeof reviver === "function" ? applyReviver.applyReviver(reviver, { "": res }, "", res) : res;
      }
    };
    exports.NodeBase = NodeBase;
  }
});

// node_modules/yaml/dist/nodes/Alias.js
var require_Alias = __commonJS({
  "node_modules/yaml/dist/nodes/Alias.js"(exports) {
    "use strict";
    var anchors = require_anchors();
    var visit = require_visit();
    var identity = require_identity();
    var Node = require_Node();
    var toJS = require_toJS();
    var Alias = class extends Node.NodeBase {
      constructor(source) {
        super(identity.ALIAS);
        this.source = source;
        Object.defineProperty(this, "tag", {
          set() {
            throw new Error("Alias nodes cannot have tags");
          }
        });
      }
      /**
       * Resolve the value of this alias within `doc`, finding the last
       * instance of the `source` anchor before this node.
       */
      resolve(doc, ctx) {
        if (ctx?.maxAliasCount === 0)
          throw new ReferenceError("Alias resolution is disabled");
        let nodes;
        if (ctx?.aliasResolveCache) {
          nodes = ctx.aliasResolveCache;
        } else {
          nodes = [];
          visit.visit(doc, {
            Node: (_key, node) => {
              if (identity.isAlias(node) || identity.hasAnchor(node))
                nodes.push(node);
            }
          });
          if (ctx)
            ctx.aliasResolveCache = nodes;
        }
        let found = void 0;
        for (const node of nodes) {
          if (node === this)
            break;
          if (node.anchor === this.source)
            found = node;
        }
        if (found && ctx) {
          const { anchors: anchors2, doc: doc2, maxAliasCount } = ctx;
          let data = anchors2.get(found);
          if (!data) {
            toJS.toJS(found, null, ctx);
            data = anchors2.get(found);
          }
          if (data?.res === void 0) {
            const msg = "This should not happen: Alias anchor was not resolved?";
            throw new ReferenceError(msg);
          }
          if (maxAliasCount >= 0) {
            data.count += 1;
            if (data.aliasCount === 0)
              data.aliasCount = getAliasCount(doc2, found, anchors2);
            if (data.count * data.aliasCount > maxAliasCount) {
              const msg = "Excessive alias count indicates a resource exhaustion attack";
              throw new ReferenceError(msg);
            }
          }
        }
        return found;
      }
      toJSON(_arg, ctx) {
        if (!ctx)
          return { source: this.source };
        const source = this.resolve(ctx.doc, ctx);
        if (!source) {
          const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
          throw new ReferenceError(msg);
        }
        return ctx.anchors.get(source).res;
      }
      toString(ctx, _onComment, _onChompKeep) {
        const src = `*${this.source}`;
        if (ctx) {
          anchors.anchorIsValid(this.source);
          if (ctx.options.verifyAliasOrder && !ctx.anchors.has(this.source)) {
            const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
            throw new Error(msg);
          }
          if (ctx.implicitKey)
            return `${src} `;
        }
        return src;
      }
    };
    function getAliasCount(doc, node, anchors2) {
      if (identity.isAlias(node)) {
        const source = node.resolve(doc);
        const anchor = anchors2 && source && anchors2.get(source);
        return anchor ? anchor.count * anchor.aliasCount : 0;
      } else if (identity.isCollection(node)) {
        let count = 0;
        for (const item of node.items) {
          const c = getAliasCount(doc, item, anchors2);
          if (c > count)
            count = c;
        }
        return count;
      } else if (identity.isPair(node)) {
        const kc = getAliasCount(doc, node.key, anchors2);
        const vc = getAliasCount(doc, node.value, anchors2);
        return Math.max(kc, vc);
      }
      return 1;
    }
    exports.Alias = Alias;
  }
});

// node_modules/yaml/dist/nodes/Scalar.js
var require_Scalar = __commonJS({
  "node_modules/yaml/dist/nodes/Scalar.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Node = require_Node();
    var toJS = require_toJS();
    var isScalarValue = (value) => !value || typeof value !== "function" && typeof value !== "object";
    var Scalar = class extends Node.NodeBase {
      constructor(value) {
        super(identity.SCALAR);
        this.value = value;
      }
      toJSON(arg, ctx) {
        return ctx?.keep ? this.value : toJS.toJS(this.value, arg, ctx);
      }
      toString() {
        return String(this.value);
      }
    };
    Scalar.BLOCK_FOLDED = "BLOCK_FOLDED";
    Scalar.BLOCK_LITERAL = "BLOCK_LITERAL";
    Scalar.PLAIN = "PLAIN";
    Scalar.QUOTE_DOUBLE = "QUOTE_DOUBLE";
    Scalar.QUOTE_SINGLE = "QUOTE_SINGLE";
    exports.Scalar = Scalar;
    exports.isScalarValue = isScalarValue;
  }
});

// node_modules/yaml/dist/doc/createNode.js
var require_createNode = __commonJS({
  "node_modules/yaml/dist/doc/createNode.js"(exports) {
    "use strict";
    var Alias = require_Alias();
    var identity = require_identity();
    var Scalar = require_Scalar();
    var defaultTagPrefix = "tag:yaml.org,2002:";
    function findTagObject(value, tagName, tags) {
      if (tagName) {
        const match = tags.filter((t) => t.tag === tagName);
        const tagObj = match.find((t) => !t.format) ?? match[0];
        if (!tagObj)
          throw new Error(`Tag ${tagName} not found`);
        return tagObj;
      }
      return tags.find((t) => t.identify?.(value) && !t.format);
    }
    function createNode(value, tagName, ctx) {
      if (identity.isDocument(value))
        value = value.contents;
      if (identity.isNode(value))
        return value;
      if (identity.isPair(value)) {
        const map = ctx.schema[identity.MAP].createNode?.(ctx.schema, null, ctx);
        map.items.push(value);
        return map;
      }
      if (value instanceof String || value instanceof Number || value instanceof Boolean || typeof BigInt !== "undefined" && value instanceof BigInt) {
        value = value.valueOf();
      }
      const { aliasDuplicateObjects, onAnchor, onTagObj, schema, sourceObjects } = ctx;
      let ref = void 0;
      if (aliasDuplicateObjects && value && typeof value === "object") {
        ref = sourceObjects.get(value);
        if (ref) {
          ref.anchor ?? (ref.anchor = onAnchor(value));
          return new Alias.Alias(ref.anchor);
        } else {
          ref = { anchor: null, node: null };
          sourceObjects.set(value, ref);
        }
      }
      if (tagName?.startsWith("!!"))
        tagName = defaultTagPrefix + tagName.slice(2);
      let tagObj = findTagObject(value, tagName, schema.tags);
      if (!tagObj) {
        if (value && typeof value.toJSON === "function") {
          value = value.toJSON();
        }
        if (!value || typeof value !== "object") {
          const node2 = new Scalar.Scalar(value);
          if (ref)
            ref.node = node2;
          return node2;
        }
        tagObj = value instanceof Map ? schema[identity.MAP] : Symbol.iterator in Object(value) ? schema[identity.SEQ] : schema[identity.MAP];
      }
      if (onTagObj) {
        onTagObj(tagObj);
        delete ctx.onTagObj;
      }
      const node = tagObj?.createNode ? tagObj.createNode(ctx.schema, value, ctx) : typeof tagObj?.nodeClass?.from === "function" ? tagObj.nodeClass.from(ctx.schema, value, ctx) : new Scalar.Scalar(value);
      if (tagName)
        node.tag = tagName;
      else if (!tagObj.default)
        node.tag = tagObj.tag;
      if (ref)
        ref.node = node;
      return node;
    }
    exports.createNode = createNode;
  }
});

// node_modules/yaml/dist/nodes/Collection.js
var require_Collection = __commonJS({
  "node_modules/yaml/dist/nodes/Collection.js"(exports) {
    "use strict";
    var createNode = require_createNode();
    var identity = require_identity();
    var Node = require_Node();
    function collectionFromPath(schema, path, value) {
      let v = value;
      for (let i = path.length - 1; i >= 0; --i) {
        const k = path[i];
        if (typeof k === "number" && Number.isInteger(k) && k >= 0) {
          const a = [];
          a[k] = v;
          v = a;
        } else {
          v = /* @__PURE__ */ new Map([[k, v]]);
        }
      }
      return createNode.createNode(v, void 0, {
        aliasDuplicateObjects: false,
        keepUndefined: false,
        onAnchor: () => {
          throw new Error("This should not happen, please report a bug.");
        },
        schema,
        sourceObjects: /* @__PURE__ */ new Map()
      });
    }
    var isEmptyPath = (path) => path == null || typeof path === "object" && !!path[Symbol.iterator]().next().done;
    var Collection = class extends Node.NodeBase {
      constructor(type, schema) {
        super(type);
        Object.defineProperty(this, "schema", {
          value: schema,
          configurable: true,
          enumerable: false,
          writable: true
        });
      }
      /**
       * Create a copy of this collection.
       *
       * @param schema - If defined, overwrites the original's schema
       */
      clone(schema) {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (schema)
          copy.schema = schema;
        copy.items = copy.items.map((it) => identity.isNode(it) || identity.isPair(it) ? it.clone(schema) : it);
        if (this.range)
          copy.range = this.range.slice();
        return copy;
      }
      /**
       * Adds a value to the collection. For `!!map` and `!!omap` the value must
       * be a Pair instance or a `{ key, value }` object, which may not have a key
       * that already exists in the map.
       */
      addIn(path, value) {
        if (isEmptyPath(path))
          this.add(value);
        else {
          const [key, ...rest] = path;
          const node = this.get(key, true);
          if (identity.isCollection(node))
            node.addIn(rest, value);
          else if (node === void 0 && this.schema)
            this.set(key, collectionFromPath(this.schema, rest, value));
          else
            throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
      }
      /**
       * Removes a value from the collection.
       * @returns `true` if the item was found and removed.
       */
      deleteIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
          return this.delete(key);
        const node = this.get(key, true);
        if (identity.isCollection(node))
          return node.deleteIn(rest);
        else
          throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
      }
      /**
       * Returns item at `key`, or `undefined` if not found. By default unwraps
       * scalar values from their surrounding node; to disable set `keepScalar` to
       * `true` (collections are always returned intact).
       */
      getIn(path, keepScalar) {
        const [key, ...rest] = path;
        const node = this.get(key, true);
        if (rest.length === 0)
          return !keepScalar && identity.isScalar(node) ? node.value : node;
        else
          return identity.isCollection(node) ? node.getIn(rest, keepScalar) : void 0;
      }
      hasAllNullValues(allowScalar) {
        return this.items.every((node) => {
          if (!identity.isPair(node))
            return false;
          const n = node.value;
          return n == null || allowScalar && identity.isScalar(n) && n.value == null && !n.commentBefore && !n.comment && !n.tag;
        });
      }
      /**
       * Checks if the collection includes a value with the key `key`.
       */
      hasIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
          return this.has(key);
        const node = this.get(key, true);
        return identity.isCollection(node) ? node.hasIn(rest) : false;
      }
      /**
       * Sets a value in this collection. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       */
      setIn(path, value) {
        const [key, ...rest] = path;
        if (rest.length === 0) {
          this.set(key, value);
        } else {
          const node = this.get(key, true);
          if (identity.isCollection(node))
            node.setIn(rest, value);
          else if (node === void 0 && this.schema)
            this.set(key, collectionFromPath(this.schema, rest, value));
          else
            throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
      }
    };
    exports.Collection = Collection;
    exports.collectionFromPath = collectionFromPath;
    exports.isEmptyPath = isEmptyPath;
  }
});

// node_modules/yaml/dist/stringify/stringifyComment.js
var require_stringifyComment = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyComment.js"(exports) {
    "use strict";
    var stringifyComment = (str) => str.replace(/^(?!$)(?: $)?/gm, "#");
    function indentComment(comment, indent) {
      if (/^\n+$/.test(comment))
        return comment.substring(1);
      return indent ? comment.replace(/^(?! *$)/gm, indent) : comment;
    }
    var lineComment = (str, indent, comment) => str.endsWith("\n") ? indentComment(comment, indent) : comment.includes("\n") ? "\n" + indentComment(comment, indent) : (str.endsWith(" ") ? "" : " ") + comment;
    exports.indentComment = indentComment;
    exports.lineComment = lineComment;
    exports.stringifyComment = stringifyComment;
  }
});

// node_modules/yaml/dist/stringify/foldFlowLines.js
var require_foldFlowLines = __commonJS({
  "node_modules/yaml/dist/stringify/foldFlowLines.js"(exports) {
    "use strict";
    var FOLD_FLOW = "flow";
    var FOLD_BLOCK = "block";
    var FOLD_QUOTED = "quoted";
    function foldFlowLines(text, indent, mode = "flow", { indentAtStart, lineWidth = 80, minContentWidth = 20, onFold, onOverflow } = {}) {
      if (!lineWidth || lineWidth < 0)
        return text;
      if (lineWidth < minContentWidth)
        minContentWidth = 0;
      const endStep = Math.max(1 + minContentWidth, 1 + lineWidth - indent.length);
      if (text.length <= endStep)
        return text;
      const folds = [];
      const escapedFolds = {};
      let end = lineWidth - indent.length;
      if (typeof indentAtStart === "number") {
        if (indentAtStart > lineWidth - Math.max(2, minContentWidth))
          folds.push(0);
        else
          end = lineWidth - indentAtStart;
      }
      let split = void 0;
      let prev = void 0;
      let overflow = false;
      let i = -1;
      let escStart = -1;
      let escEnd = -1;
      if (mode === FOLD_BLOCK) {
        i = consumeMoreIndentedLines(text, i, indent.length);
        if (i !== -1)
          end = i + endStep;
      }
      for (let ch; ch = text[i += 1]; ) {
        if (mode === FOLD_QUOTED && ch === "\\") {
          escStart = i;
          switch (text[i + 1]) {
            case "x":
              i += 3;
              break;
            case "u":
              i += 5;
              break;
            case "U":
              i += 9;
              break;
            default:
              i += 1;
          }
          escEnd = i;
        }
        if (ch === "\n") {
          if (mode === FOLD_BLOCK)
            i = consumeMoreIndentedLines(text, i, indent.length);
          end = i + indent.length + endStep;
          split = void 0;
        } else {
          if (ch === " " && prev && prev !== " " && prev !== "\n" && prev !== "	") {
            const next = text[i + 1];
            if (next && next !== " " && next !== "\n" && next !== "	")
              split = i;
          }
          if (i >= end) {
            if (split) {
              folds.push(split);
              end = split + endStep;
              split = void 0;
            } else if (mode === FOLD_QUOTED) {
              while (prev === " " || prev === "	") {
                prev = ch;
                ch = text[i += 1];
                overflow = true;
              }
              const j = i > escEnd + 1 ? i - 2 : escStart - 1;
              if (escapedFolds[j])
                return text;
              folds.push(j);
              escapedFolds[j] = true;
              end = j + endStep;
              split = void 0;
            } else {
              overflow = true;
            }
          }
        }
        prev = ch;
      }
      if (overflow && onOverflow)
        onOverflow();
      if (folds.length === 0)
        return text;
      if (onFold)
        onFold();
      let res = text.slice(0, folds[0]);
      for (let i2 = 0; i2 < folds.length; ++i2) {
        const fold = folds[i2];
        const end2 = folds[i2 + 1] || text.length;
        if (fold === 0)
          res = `
${indent}${text.slice(0, end2)}`;
        else {
          if (mode === FOLD_QUOTED && escapedFolds[fold])
            res += `${text[fold]}\\`;
          res += `
${indent}${text.slice(fold + 1, end2)}`;
        }
      }
      return res;
    }
    function consumeMoreIndentedLines(text, i, indent) {
      let end = i;
      let start = i + 1;
      let ch = text[start];
      while (ch === " " || ch === "	") {
        if (i < start + indent) {
          ch = text[++i];
        } else {
          do {
            ch = text[++i];
          } while (ch && ch !== "\n");
          end = i;
          start = i + 1;
          ch = text[start];
        }
      }
      return end;
    }
    exports.FOLD_BLOCK = FOLD_BLOCK;
    exports.FOLD_FLOW = FOLD_FLOW;
    exports.FOLD_QUOTED = FOLD_QUOTED;
    exports.foldFlowLines = foldFlowLines;
  }
});

// node_modules/yaml/dist/stringify/stringifyString.js
var require_stringifyString = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyString.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var foldFlowLines = require_foldFlowLines();
    var getFoldOptions = (ctx, isBlock) => ({
      indentAtStart: isBlock ? ctx.indent.length : ctx.indentAtStart,
      lineWidth: ctx.options.lineWidth,
      minContentWidth: ctx.options.minContentWidth
    });
    var containsDocumentMarker = (str) => /^(%|---|\.\.\.)/m.test(str);
    function lineLengthOverLimit(str, lineWidth, indentLength) {
      if (!lineWidth || lineWidth < 0)
        return false;
      const limit = lineWidth - indentLength;
      const strLen = str.length;
      if (strLen <= limit)
        return false;
      for (let i = 0, start = 0; i < strLen; ++i) {
        if (str[i] === "\n") {
          if (i - start > limit)
            return true;
          start = i + 1;
          if (strLen - start <= limit)
            return false;
        }
      }
      return true;
    }
    function doubleQuotedString(value, ctx) {
      const json = JSON.stringify(value);
      if (ctx.options.doubleQuotedAsJSON)
        return json;
      const { implicitKey } = ctx;
      const minMultiLineLength = ctx.options.doubleQuotedMinMultiLineLength;
      const indent = ctx.indent || (containsDocumentMarker(value) ? "  " : "");
      let str = "";
      let start = 0;
      for (let i = 0, ch = json[i]; ch; ch = json[++i]) {
        if (ch === " " && json[i + 1] === "\\" && json[i + 2] === "n") {
          str += json.slice(start, i) + "\\ ";
          i += 1;
          start = i;
          ch = "\\";
        }
        if (ch === "\\")
          switch (json[i + 1]) {
            case "u":
              {
                str += json.slice(start, i);
                const code = json.substr(i + 2, 4);
                switch (code) {
                  case "0000":
                    str += "\\0";
                    break;
                  case "0007":
                    str += "\\a";
                    break;
                  case "000b":
                    str += "\\v";
                    break;
                  case "001b":
                    str += "\\e";
                    break;
                  case "0085":
                    str += "\\N";
                    break;
                  case "00a0":
                    str += "\\_";
                    break;
                  case "2028":
                    str += "\\L";
                    break;
                  case "2029":
                    str += "\\P";
                    break;
                  default:
                    if (code.substr(0, 2) === "00")
                      str += "\\x" + code.substr(2);
                    else
                      str += json.substr(i, 6);
                }
                i += 5;
                start = i + 1;
              }
              break;
            case "n":
              if (implicitKey || json[i + 2] === '"' || json.length < minMultiLineLength) {
                i += 1;
              } else {
                str += json.slice(start, i) + "\n\n";
                while (json[i + 2] === "\\" && json[i + 3] === "n" && json[i + 4] !== '"') {
                  str += "\n";
                  i += 2;
                }
                str += indent;
                if (json[i + 2] === " ")
                  str += "\\";
                i += 1;
                start = i + 1;
              }
              break;
            default:
              i += 1;
          }
      }
      str = start ? str + json.slice(start) : json;
      return implicitKey ? str : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_QUOTED, getFoldOptions(ctx, false));
    }
    function singleQuotedString(value, ctx) {
      if (ctx.options.singleQuote === false || ctx.implicitKey && value.includes("\n") || /[ \t]\n|\n[ \t]/.test(value))
        return doubleQuotedString(value, ctx);
      const indent = ctx.indent || (containsDocumentMarker(value) ? "  " : "");
      const res = "'" + value.replace(/'/g, "''").replace(/\n+/g, `$&
${indent}`) + "'";
      return ctx.implicitKey ? res : foldFlowLines.foldFlowLines(res, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
    }
    function quotedString(value, ctx) {
      const { singleQuote } = ctx.options;
      let qs;
      if (singleQuote === false)
        qs = doubleQuotedString;
      else {
        const hasDouble = value.includes('"');
        const hasSingle = value.includes("'");
        if (hasDouble && !hasSingle)
          qs = singleQuotedString;
        else if (hasSingle && !hasDouble)
          qs = doubleQuotedString;
        else
          qs = singleQuote ? singleQuotedString : doubleQuotedString;
      }
      return qs(value, ctx);
    }
    var blockEndNewlines;
    try {
      blockEndNewlines = new RegExp("(^|(?<!\n))\n+(?!\n|$)", "g");
    } catch {
      blockEndNewlines = /\n+(?!\n|$)/g;
    }
    function blockString({ comment, type, value }, ctx, onComment, onChompKeep) {
      const { blockQuote, commentString, lineWidth } = ctx.options;
      if (!blockQuote || /\n[\t ]+$/.test(value)) {
        return quotedString(value, ctx);
      }
      const indent = ctx.indent || (ctx.forceBlockIndent || containsDocumentMarker(value) ? "  " : "");
      const literal = blockQuote === "literal" ? true : blockQuote === "folded" || type === Scalar.Scalar.BLOCK_FOLDED ? false : type === Scalar.Scalar.BLOCK_LITERAL ? true : !lineLengthOverLimit(value, lineWidth, indent.length);
      if (!value)
        return literal ? "|\n" : ">\n";
      let chomp;
      let endStart;
      for (endStart = value.length; endStart > 0; --endStart) {
        const ch = value[endStart - 1];
        if (ch !== "\n" && ch !== "	" && ch !== " ")
          break;
      }
      let end = value.substring(endStart);
      const endNlPos = end.indexOf("\n");
      if (endNlPos === -1) {
        chomp = "-";
      } else if (value === end || endNlPos !== end.length - 1) {
        chomp = "+";
        if (onChompKeep)
          onChompKeep();
      } else {
        chomp = "";
      }
      if (end) {
        value = value.slice(0, -end.length);
        if (end[end.length - 1] === "\n")
          end = end.slice(0, -1);
        end = end.replace(blockEndNewlines, `$&${indent}`);
      }
      let startWithSpace = false;
      let startEnd;
      let startNlPos = -1;
      for (startEnd = 0; startEnd < value.length; ++startEnd) {
        const ch = value[startEnd];
        if (ch === " ")
          startWithSpace = true;
        else if (ch === "\n")
          startNlPos = startEnd;
        else
          break;
      }
      let start = value.substring(0, startNlPos < startEnd ? startNlPos + 1 : startEnd);
      if (start) {
        value = value.substring(start.length);
        start = start.replace(/\n+/g, `$&${indent}`);
      }
      const indentSize = indent ? "2" : "1";
      let header = (startWithSpace ? indentSize : "") + chomp;
      if (comment) {
        header += " " + commentString(comment.replace(/ ?[\r\n]+/g, " "));
        if (onComment)
          onComment();
      }
      if (!literal) {
        const foldedValue = value.replace(/\n+/g, "\n$&").replace(/(?:^|\n)([\t ].*)(?:([\n\t ]*)\n(?![\n\t ]))?/g, "$1$2").replace(/\n+/g, `$&${indent}`);
        let literalFallback = false;
        const foldOptions = getFoldOptions(ctx, true);
        if (blockQuote !== "folded" && type !== Scalar.Scalar.BLOCK_FOLDED) {
          foldOptions.onOverflow = () => {
            literalFallback = true;
          };
        }
        const body = foldFlowLines.foldFlowLines(`${start}${foldedValue}${end}`, indent, foldFlowLines.FOLD_BLOCK, foldOptions);
        if (!literalFallback)
          return `>${header}
${indent}${body}`;
      }
      value = value.replace(/\n+/g, `$&${indent}`);
      return `|${header}
${indent}${start}${value}${end}`;
    }
    function plainString(item, ctx, onComment, onChompKeep) {
      const { type, value } = item;
      const { actualString, implicitKey, indent, indentStep, inFlow } = ctx;
      if (implicitKey && value.includes("\n") || inFlow && /[[\]{},]/.test(value)) {
        return quotedString(value, ctx);
      }
      if (/^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/.test(value)) {
        return implicitKey || inFlow || !value.includes("\n") ? quotedString(value, ctx) : blockString(item, ctx, onComment, onChompKeep);
      }
      if (!implicitKey && !inFlow && type !== Scalar.Scalar.PLAIN && value.includes("\n")) {
        return blockString(item, ctx, onComment, onChompKeep);
      }
      if (containsDocumentMarker(value)) {
        if (indent === "") {
          ctx.forceBlockIndent = true;
          return blockString(item, ctx, onComment, onChompKeep);
        } else if (implicitKey && indent === indentStep) {
          return quotedString(value, ctx);
        }
      }
      const str = value.replace(/\n+/g, `$&
${indent}`);
      if (actualString) {
        const test = (tag) => tag.default && tag.tag !== "tag:yaml.org,2002:str" && tag.test?.test(str);
        const { compat, tags } = ctx.doc.schema;
        if (tags.some(test) || compat?.some(test))
          return quotedString(value, ctx);
      }
      return implicitKey ? str : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
    }
    function stringifyString(item, ctx, onComment, onChompKeep) {
      const { implicitKey, inFlow } = ctx;
      const ss = typeof item.value === "string" ? item : Object.assign({}, item, { value: String(item.value) });
      let { type } = item;
      if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
        if (/[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u.test(ss.value))
          type = Scalar.Scalar.QUOTE_DOUBLE;
      }
      const _stringify = (_type) => {
        switch (_type) {
          case Scalar.Scalar.BLOCK_FOLDED:
          case Scalar.Scalar.BLOCK_LITERAL:
            return implicitKey || inFlow ? quotedString(ss.value, ctx) : blockString(ss, ctx, onComment, onChompKeep);
          case Scalar.Scalar.QUOTE_DOUBLE:
            return doubleQuotedString(ss.value, ctx);
          case Scalar.Scalar.QUOTE_SINGLE:
            return singleQuotedString(ss.value, ctx);
          case Scalar.Scalar.PLAIN:
            return plainString(ss, ctx, onComment, onChompKeep);
          default:
            return null;
        }
      };
      let res = _stringify(type);
      if (res === null) {
        const { defaultKeyType, defaultStringType } = ctx.options;
        const t = implicitKey && defaultKeyType || defaultStringType;
        res = _stringify(t);
        if (res === null)
          throw new Error(`Unsupported default string type ${t}`);
      }
      return res;
    }
    exports.stringifyString = stringifyString;
  }
});

// node_modules/yaml/dist/stringify/stringify.js
var require_stringify = __commonJS({
  "node_modules/yaml/dist/stringify/stringify.js"(exports) {
    "use strict";
    var anchors = require_anchors();
    var identity = require_identity();
    var stringifyComment = require_stringifyComment();
    var stringifyString = require_stringifyString();
    function createStringifyContext(doc, options) {
      const opt = Object.assign({
        blockQuote: true,
        commentString: stringifyComment.stringifyComment,
        defaultKeyType: null,
        defaultStringType: "PLAIN",
        directives: null,
        doubleQuotedAsJSON: false,
        doubleQuotedMinMultiLineLength: 40,
        falseStr: "false",
        flowCollectionPadding: true,
        indentSeq: true,
        lineWidth: 80,
        minContentWidth: 20,
        nullStr: "null",
        simpleKeys: false,
        singleQuote: null,
        trailingComma: false,
        trueStr: "true",
        verifyAliasOrder: true
      }, doc.schema.toStringOptions, options);
      let inFlow;
      switch (opt.collectionStyle) {
        case "block":
          inFlow = false;
          break;
        case "flow":
          inFlow = true;
          break;
        default:
          inFlow = null;
      }
      return {
        anchors: /* @__PURE__ */ new Set(),
        doc,
        flowCollectionPadding: opt.flowCollectionPadding ? " " : "",
        indent: "",
        indentStep: typeof opt.indent === "number" ? " ".repeat(opt.indent) : "  ",
        inFlow,
        options: opt
      };
    }
    function getTagObject(tags, item) {
      if (item.tag) {
        const match = tags.filter((t) => t.tag === item.tag);
        if (match.length > 0)
          return match.find((t) => t.format === item.format) ?? match[0];
      }
      let tagObj = void 0;
      let obj;
      if (identity.isScalar(item)) {
        obj = item.value;
        let match = tags.filter((t) => t.identify?.(obj));
        if (match.length > 1) {
          const testMatch = match.filter((t) => t.test);
          if (testMatch.length > 0)
            match = testMatch;
        }
        tagObj = match.find((t) => t.format === item.format) ?? match.find((t) => !t.format);
      } else {
        obj = item;
        tagObj = tags.find((t) => t.nodeClass && obj instanceof t.nodeClass);
      }
      if (!tagObj) {
        const name = obj?.constructor?.name ?? (obj === null ? "null" : typeof obj);
        throw new Error(`Tag not resolved for ${name} value`);
      }
      return tagObj;
    }
    function stringifyProps(node, tagObj, { anchors: anchors$1, doc }) {
      if (!doc.directives)
        return "";
      const props = [];
      const anchor = (identity.isScalar(node) || identity.isCollection(node)) && node.anchor;
      if (anchor && anchors.anchorIsValid(anchor)) {
        anchors$1.add(anchor);
        props.push(`&${anchor}`);
      }
      const tag = node.tag ?? (tagObj.default ? null : tagObj.tag);
      if (tag)
        props.push(doc.directives.tagString(tag));
      return props.join(" ");
    }
    function stringify3(item, ctx, onComment, onChompKeep) {
      if (identity.isPair(item))
        return item.toString(ctx, onComment, onChompKeep);
      if (identity.isAlias(item)) {
        if (ctx.doc.directives)
          return item.toString(ctx);
        if (ctx.resolvedAliases?.has(item)) {
          throw new TypeError(`Cannot stringify circular structure without alias nodes`);
        } else {
          if (ctx.resolvedAliases)
            ctx.resolvedAliases.add(item);
          else
            ctx.resolvedAliases = /* @__PURE__ */ new Set([item]);
          item = item.resolve(ctx.doc);
        }
      }
      let tagObj = void 0;
      const node = identity.isNode(item) ? item : ctx.doc.createNode(item, { onTagObj: (o) => tagObj = o });
      tagObj ?? (tagObj = getTagObject(ctx.doc.schema.tags, node));
      const props = stringifyProps(node, tagObj, ctx);
      if (props.length > 0)
        ctx.indentAtStart = (ctx.indentAtStart ?? 0) + props.length + 1;
      const str = typeof tagObj.stringify === "function" ? tagObj.stringify(node, ctx, onComment, onChompKeep) : identity.isScalar(node) ? stringifyString.stringifyString(node, ctx, onComment, onChompKeep) : node.toString(ctx, onComment, onChompKeep);
      if (!props)
        return str;
      return identity.isScalar(node) || str[0] === "{" || str[0] === "[" ? `${props} ${str}` : `${props}
${ctx.indent}${str}`;
    }
    exports.createStringifyContext = createStringifyContext;
    exports.stringify = stringify3;
  }
});

// node_modules/yaml/dist/stringify/stringifyPair.js
var require_stringifyPair = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyPair.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var stringify3 = require_stringify();
    var stringifyComment = require_stringifyComment();
    function stringifyPair({ key, value }, ctx, onComment, onChompKeep) {
      const { allNullValues, doc, indent, indentStep, options: { commentString, indentSeq, simpleKeys } } = ctx;
      let keyComment = identity.isNode(key) && key.comment || null;
      if (simpleKeys) {
        if (keyComment) {
          throw new Error("With simple keys, key nodes cannot have comments");
        }
        if (identity.isCollection(key) || !identity.isNode(key) && typeof key === "object") {
          const msg = "With simple keys, collection cannot be used as a key value";
          throw new Error(msg);
        }
      }
      let explicitKey = !simpleKeys && (!key || keyComment && value == null && !ctx.inFlow || identity.isCollection(key) || (identity.isScalar(key) ? key.type === Scalar.Scalar.BLOCK_FOLDED || key.type === Scalar.Scalar.BLOCK_LITERAL : typeof key === "object"));
      ctx = Object.assign({}, ctx, {
        allNullValues: false,
        implicitKey: !explicitKey && (simpleKeys || !allNullValues),
        indent: indent + indentStep
      });
      let keyCommentDone = false;
      let chompKeep = false;
      let str = stringify3.stringify(key, ctx, () => keyCommentDone = true, () => chompKeep = true);
      if (!explicitKey && !ctx.inFlow && str.length > 1024) {
        if (simpleKeys)
          throw new Error("With simple keys, single line scalar must not span more than 1024 characters");
        explicitKey = true;
      }
      if (ctx.inFlow) {
        if (allNullValues || value == null) {
          if (keyCommentDone && onComment)
            onComment();
          return str === "" ? "?" : explicitKey ? `? ${str}` : str;
        }
      } else if (allNullValues && !simpleKeys || value == null && explicitKey) {
        str = `? ${str}`;
        if (keyComment && !keyCommentDone) {
          str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        } else if (chompKeep && onChompKeep)
          onChompKeep();
        return str;
      }
      if (keyCommentDone)
        keyComment = null;
      if (explicitKey) {
        if (keyComment)
          str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        str = `? ${str}
${indent}:`;
      } else {
        str = `${str}:`;
        if (keyComment)
          str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
      }
      let vsb, vcb, valueComment;
      if (identity.isNode(value)) {
        vsb = !!value.spaceBefore;
        vcb = value.commentBefore;
        valueComment = value.comment;
      } else {
        vsb = false;
        vcb = null;
        valueComment = null;
        if (value && typeof value === "object")
          value = doc.createNode(value);
      }
      ctx.implicitKey = false;
      if (!explicitKey && !keyComment && identity.isScalar(value))
        ctx.indentAtStart = str.length + 1;
      chompKeep = false;
      if (!indentSeq && indentStep.length >= 2 && !ctx.inFlow && !explicitKey && identity.isSeq(value) && !value.flow && !value.tag && !value.anchor) {
        ctx.indent = ctx.indent.substring(2);
      }
      let valueCommentDone = false;
      const valueStr = stringify3.stringify(value, ctx, () => valueCommentDone = true, () => chompKeep = true);
      let ws = " ";
      if (keyComment || vsb || vcb) {
        ws = vsb ? "\n" : "";
        if (vcb) {
          const cs = commentString(vcb);
          ws += `
${stringifyComment.indentComment(cs, ctx.indent)}`;
        }
        if (valueStr === "" && !ctx.inFlow) {
          if (ws === "\n" && valueComment)
            ws = "\n\n";
        } else {
          ws += `
${ctx.indent}`;
        }
      } else if (!explicitKey && identity.isCollection(value)) {
        const vs0 = valueStr[0];
        const nl0 = valueStr.indexOf("\n");
        const hasNewline = nl0 !== -1;
        const flow = ctx.inFlow ?? value.flow ?? value.items.length === 0;
        if (hasNewline || !flow) {
          let hasPropsLine = false;
          if (hasNewline && (vs0 === "&" || vs0 === "!")) {
            let sp0 = valueStr.indexOf(" ");
            if (vs0 === "&" && sp0 !== -1 && sp0 < nl0 && valueStr[sp0 + 1] === "!") {
              sp0 = valueStr.indexOf(" ", sp0 + 1);
            }
            if (sp0 === -1 || nl0 < sp0)
              hasPropsLine = true;
          }
          if (!hasPropsLine)
            ws = `
${ctx.indent}`;
        }
      } else if (valueStr === "" || valueStr[0] === "\n") {
        ws = "";
      }
      str += ws + valueStr;
      if (ctx.inFlow) {
        if (valueCommentDone && onComment)
          onComment();
      } else if (valueComment && !valueCommentDone) {
        str += stringifyComment.lineComment(str, ctx.indent, commentString(valueComment));
      } else if (chompKeep && onChompKeep) {
        onChompKeep();
      }
      return str;
    }
    exports.stringifyPair = stringifyPair;
  }
});

// node_modules/yaml/dist/log.js
var require_log = __commonJS({
  "node_modules/yaml/dist/log.js"(exports) {
    "use strict";
    var node_process = __require("process");
    function debug(logLevel, ...messages) {
      if (logLevel === "debug")
        console.log(...messages);
    }
    function warn(logLevel, warning) {
      if (logLevel === "debug" || logLevel === "warn") {
        if (typeof node_process.emitWarning === "function")
          node_process.emitWarning(warning);
        else
          console.warn(warning);
      }
    }
    exports.debug = debug;
    exports.warn = warn;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/merge.js
var require_merge = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/merge.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var MERGE_KEY = "<<";
    var merge = {
      identify: (value) => value === MERGE_KEY || typeof value === "symbol" && value.description === MERGE_KEY,
      default: "key",
      tag: "tag:yaml.org,2002:merge",
      test: /^<<$/,
      resolve: () => Object.assign(new Scalar.Scalar(Symbol(MERGE_KEY)), {
        addToJSMap: addMergeToJSMap
      }),
      stringify: () => MERGE_KEY
    };
    var isMergeKey = (ctx, key) => (merge.identify(key) || identity.isScalar(key) && (!key.type || key.type === Scalar.Scalar.PLAIN) && merge.identify(key.value)) && ctx?.doc.schema.tags.some((tag) => tag.tag === merge.tag && tag.default);
    function addMergeToJSMap(ctx, map, value) {
      const source = resolveAliasValue(ctx, value);
      if (identity.isSeq(source))
        for (const it of source.items)
          mergeValue(ctx, map, it);
      else if (Array.isArray(source))
        for (const it of source)
          mergeValue(ctx, map, it);
      else
        mergeValue(ctx, map, source);
    }
    function mergeValue(ctx, map, value) {
      const source = resolveAliasValue(ctx, value);
      if (!identity.isMap(source))
        throw new Error("Merge sources must be maps or map aliases");
      const srcMap = source.toJSON(null, ctx, Map);
      for (const [key, value2] of srcMap) {
        if (map instanceof Map) {
          if (!map.has(key))
            map.set(key, value2);
        } else if (map instanceof Set) {
          map.add(key);
        } else if (!Object.prototype.hasOwnProperty.call(map, key)) {
          Object.defineProperty(map, key, {
            value: value2,
            writable: true,
            enumerable: true,
            configurable: true
          });
        }
      }
      return map;
    }
    function resolveAliasValue(ctx, value) {
      return ctx && identity.isAlias(value) ? value.resolve(ctx.doc, ctx) : value;
    }
    exports.addMergeToJSMap = addMergeToJSMap;
    exports.isMergeKey = isMergeKey;
    exports.merge = merge;
  }
});

// node_modules/yaml/dist/nodes/addPairToJSMap.js
var require_addPairToJSMap = __commonJS({
  "node_modules/yaml/dist/nodes/addPairToJSMap.js"(exports) {
    "use strict";
    var log = require_log();
    var merge = require_merge();
    var stringify3 = require_stringify();
    var identity = require_identity();
    var toJS = require_toJS();
    function addPairToJSMap(ctx, map, { key, value }) {
      if (identity.isNode(key) && key.addToJSMap)
        key.addToJSMap(ctx, map, value);
      else if (merge.isMergeKey(ctx, key))
        merge.addMergeToJSMap(ctx, map, value);
      else {
        const jsKey = toJS.toJS(key, "", ctx);
        if (map instanceof Map) {
          map.set(jsKey, toJS.toJS(value, jsKey, ctx));
        } else if (map instanceof Set) {
          map.add(jsKey);
        } else {
          const stringKey = stringifyKey(key, jsKey, ctx);
          const jsValue = toJS.toJS(value, stringKey, ctx);
          if (stringKey in map)
            Object.defineProperty(map, stringKey, {
              value: jsValue,
              writable: true,
              enumerable: true,
              configurable: true
            });
          else
            map[stringKey] = jsValue;
        }
      }
      return map;
    }
    function stringifyKey(key, jsKey, ctx) {
      if (jsKey === null)
        return "";
      if (typeof jsKey !== "object")
        return String(jsKey);
      if (identity.isNode(key) && ctx?.doc) {
        const strCtx = stringify3.createStringifyContext(ctx.doc, {});
        strCtx.anchors = /* @__PURE__ */ new Set();
        for (const node of ctx.anchors.keys())
          strCtx.anchors.add(node.anchor);
        strCtx.inFlow = true;
        strCtx.inStringifyKey = true;
        const strKey = key.toString(strCtx);
        if (!ctx.mapKeyWarned) {
          let jsonStr = JSON.stringify(strKey);
          if (jsonStr.length > 40)
            jsonStr = jsonStr.substring(0, 36) + '..."';
          log.warn(ctx.doc.options.logLevel, `Keys with collection values will be stringified due to JS Object restrictions: ${jsonStr}. Set mapAsMap: true to use object keys.`);
          ctx.mapKeyWarned = true;
        }
        return strKey;
      }
      return JSON.stringify(jsKey);
    }
    exports.addPairToJSMap = addPairToJSMap;
  }
});

// node_modules/yaml/dist/nodes/Pair.js
var require_Pair = __commonJS({
  "node_modules/yaml/dist/nodes/Pair.js"(exports) {
    "use strict";
    var createNode = require_createNode();
    var stringifyPair = require_stringifyPair();
    var addPairToJSMap = require_addPairToJSMap();
    var identity = require_identity();
    function createPair(key, value, ctx) {
      const k = createNode.createNode(key, void 0, ctx);
      const v = createNode.createNode(value, void 0, ctx);
      return new Pair(k, v);
    }
    var Pair = class _Pair {
      constructor(key, value = null) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.PAIR });
        this.key = key;
        this.value = value;
      }
      clone(schema) {
        let { key, value } = this;
        if (identity.isNode(key))
          key = key.clone(schema);
        if (identity.isNode(value))
          value = value.clone(schema);
        return new _Pair(key, value);
      }
      toJSON(_, ctx) {
        const pair = ctx?.mapAsMap ? /* @__PURE__ */ new Map() : {};
        return addPairToJSMap.addPairToJSMap(ctx, pair, this);
      }
      toString(ctx, onComment, onChompKeep) {
        return ctx?.doc ? stringifyPair.stringifyPair(this, ctx, onComment, onChompKeep) : JSON.stringify(this);
      }
    };
    exports.Pair = Pair;
    exports.createPair = createPair;
  }
});

// node_modules/yaml/dist/stringify/stringifyCollection.js
var require_stringifyCollection = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyCollection.js"(exports) {
    "use strict";
    var identity = require_identity();
    var stringify3 = require_stringify();
    var stringifyComment = require_stringifyComment();
    function stringifyCollection(collection, ctx, options) {
      const flow = ctx.inFlow ?? collection.flow;
      const stringify4 = flow ? stringifyFlowCollection : stringifyBlockCollection;
      return stringify4(collection, ctx, options);
    }
    function stringifyBlockCollection({ comment, items }, ctx, { blockItemPrefix, flowChars, itemIndent, onChompKeep, onComment }) {
      const { indent, options: { commentString } } = ctx;
      const itemCtx = Object.assign({}, ctx, { indent: itemIndent, type: null });
      let chompKeep = false;
      const lines = [];
      for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment2 = null;
        if (identity.isNode(item)) {
          if (!chompKeep && item.spaceBefore)
            lines.push("");
          addCommentBefore(ctx, lines, item.commentBefore, chompKeep);
          if (item.comment)
            comment2 = item.comment;
        } else if (identity.isPair(item)) {
          const ik = identity.isNode(item.key) ? item.key : null;
          if (ik) {
            if (!chompKeep && ik.spaceBefore)
              lines.push("");
            addCommentBefore(ctx, lines, ik.commentBefore, chompKeep);
          }
        }
        chompKeep = false;
        let str2 = stringify3.stringify(item, itemCtx, () => comment2 = null, () => chompKeep = true);
        if (comment2)
          str2 += stringifyComment.lineComment(str2, itemIndent, commentString(comment2));
        if (chompKeep && comment2)
          chompKeep = false;
        lines.push(blockItemPrefix + str2);
      }
      let str;
      if (lines.length === 0) {
        str = flowChars.start + flowChars.end;
      } else {
        str = lines[0];
        for (let i = 1; i < lines.length; ++i) {
          const line = lines[i];
          str += line ? `
${indent}${line}` : "\n";
        }
      }
      if (comment) {
        str += "\n" + stringifyComment.indentComment(commentString(comment), indent);
        if (onComment)
          onComment();
      } else if (chompKeep && onChompKeep)
        onChompKeep();
      return str;
    }
    function stringifyFlowCollection({ items }, ctx, { flowChars, itemIndent }) {
      const { indent, indentStep, flowCollectionPadding: fcPadding, options: { commentString } } = ctx;
      itemIndent += indentStep;
      const itemCtx = Object.assign({}, ctx, {
        indent: itemIndent,
        inFlow: true,
        type: null
      });
      let reqNewline = false;
      let linesAtValue = 0;
      const lines = [];
      for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment = null;
        if (identity.isNode(item)) {
          if (item.spaceBefore)
            lines.push("");
          addCommentBefore(ctx, lines, item.commentBefore, false);
          if (item.comment)
            comment = item.comment;
        } else if (identity.isPair(item)) {
          const ik = identity.isNode(item.key) ? item.key : null;
          if (ik) {
            if (ik.spaceBefore)
              lines.push("");
            addCommentBefore(ctx, lines, ik.commentBefore, false);
            if (ik.comment)
              reqNewline = true;
          }
          const iv = identity.isNode(item.value) ? item.value : null;
          if (iv) {
            if (iv.comment)
              comment = iv.comment;
            if (iv.commentBefore)
              reqNewline = true;
          } else if (item.value == null && ik?.comment) {
            comment = ik.comment;
          }
        }
        if (comment)
          reqNewline = true;
        let str = stringify3.stringify(item, itemCtx, () => comment = null);
        reqNewline || (reqNewline = lines.length > linesAtValue || str.includes("\n"));
        if (i < items.length - 1) {
          str += ",";
        } else if (ctx.options.trailingComma) {
          if (ctx.options.lineWidth > 0) {
            reqNewline || (reqNewline = lines.reduce((sum, line) => sum + line.length + 2, 2) + (str.length + 2) > ctx.options.lineWidth);
          }
          if (reqNewline) {
            str += ",";
          }
        }
        if (comment)
          str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
        lines.push(str);
        linesAtValue = lines.length;
      }
      const { start, end } = flowChars;
      if (lines.length === 0) {
        return start + end;
      } else {
        if (!reqNewline) {
          const len = lines.reduce((sum, line) => sum + line.length + 2, 2);
          reqNewline = ctx.options.lineWidth > 0 && len > ctx.options.lineWidth;
        }
        if (reqNewline) {
          let str = start;
          for (const line of lines)
            str += line ? `
${indentStep}${indent}${line}` : "\n";
          return `${str}
${indent}${end}`;
        } else {
          return `${start}${fcPadding}${lines.join(" ")}${fcPadding}${end}`;
        }
      }
    }
    function addCommentBefore({ indent, options: { commentString } }, lines, comment, chompKeep) {
      if (comment && chompKeep)
        comment = comment.replace(/^\n+/, "");
      if (comment) {
        const ic = stringifyComment.indentComment(commentString(comment), indent);
        lines.push(ic.trimStart());
      }
    }
    exports.stringifyCollection = stringifyCollection;
  }
});

// node_modules/yaml/dist/nodes/YAMLMap.js
var require_YAMLMap = __commonJS({
  "node_modules/yaml/dist/nodes/YAMLMap.js"(exports) {
    "use strict";
    var stringifyCollection = require_stringifyCollection();
    var addPairToJSMap = require_addPairToJSMap();
    var Collection = require_Collection();
    var identity = require_identity();
    var Pair = require_Pair();
    var Scalar = require_Scalar();
    function findPair(items, key) {
      const k = identity.isScalar(key) ? key.value : key;
      for (const it of items) {
        if (identity.isPair(it)) {
          if (it.key === key || it.key === k)
            return it;
          if (identity.isScalar(it.key) && it.key.value === k)
            return it;
        }
      }
      return void 0;
    }
    var YAMLMap = class extends Collection.Collection {
      static get tagName() {
        return "tag:yaml.org,2002:map";
      }
      constructor(schema) {
        super(identity.MAP, schema);
        this.items = [];
      }
      /**
       * A generic collection parsing method that can be extended
       * to other node classes that inherit from YAMLMap
       */
      static from(schema, obj, ctx) {
        const { keepUndefined, replacer } = ctx;
        const map = new this(schema);
        const add = (key, value) => {
          if (typeof replacer === "function")
            value = replacer.call(obj, key, value);
          else if (Array.isArray(replacer) && !replacer.includes(key))
            return;
          if (value !== void 0 || keepUndefined)
            map.items.push(Pair.createPair(key, value, ctx));
        };
        if (obj instanceof Map) {
          for (const [key, value] of obj)
            add(key, value);
        } else if (obj && typeof obj === "object") {
          for (const key of Object.keys(obj))
            add(key, obj[key]);
        }
        if (typeof schema.sortMapEntries === "function") {
          map.items.sort(schema.sortMapEntries);
        }
        return map;
      }
      /**
       * Adds a value to the collection.
       *
       * @param overwrite - If not set `true`, using a key that is already in the
       *   collection will throw. Otherwise, overwrites the previous value.
       */
      add(pair, overwrite) {
        let _pair;
        if (identity.isPair(pair))
          _pair = pair;
        else if (!pair || typeof pair !== "object" || !("key" in pair)) {
          _pair = new Pair.Pair(pair, pair?.value);
        } else
          _pair = new Pair.Pair(pair.key, pair.value);
        const prev = findPair(this.items, _pair.key);
        const sortEntries = this.schema?.sortMapEntries;
        if (prev) {
          if (!overwrite)
            throw new Error(`Key ${_pair.key} already set`);
          if (identity.isScalar(prev.value) && Scalar.isScalarValue(_pair.value))
            prev.value.value = _pair.value;
          else
            prev.value = _pair.value;
        } else if (sortEntries) {
          const i = this.items.findIndex((item) => sortEntries(_pair, item) < 0);
          if (i === -1)
            this.items.push(_pair);
          else
            this.items.splice(i, 0, _pair);
        } else {
          this.items.push(_pair);
        }
      }
      delete(key) {
        const it = findPair(this.items, key);
        if (!it)
          return false;
        const del = this.items.splice(this.items.indexOf(it), 1);
        return del.length > 0;
      }
      get(key, keepScalar) {
        const it = findPair(this.items, key);
        const node = it?.value;
        return (!keepScalar && identity.isScalar(node) ? node.value : node) ?? void 0;
      }
      has(key) {
        return !!findPair(this.items, key);
      }
      set(key, value) {
        this.add(new Pair.Pair(key, value), true);
      }
      /**
       * @param ctx - Conversion context, originally set in Document#toJS()
       * @param {Class} Type - If set, forces the returned collection type
       * @returns Instance of Type, Map, or Object
       */
      toJSON(_, ctx, Type) {
        const map = Type ? new Type() : ctx?.mapAsMap ? /* @__PURE__ */ new Map() : {};
        if (ctx?.onCreate)
          ctx.onCreate(map);
        for (const item of this.items)
          addPairToJSMap.addPairToJSMap(ctx, map, item);
        return map;
      }
      toString(ctx, onComment, onChompKeep) {
        if (!ctx)
          return JSON.stringify(this);
        for (const item of this.items) {
          if (!identity.isPair(item))
            throw new Error(`Map items must all be pairs; found ${JSON.stringify(item)} instead`);
        }
        if (!ctx.allNullValues && this.hasAllNullValues(false))
          ctx = Object.assign({}, ctx, { allNullValues: true });
        return stringifyCollection.stringifyCollection(this, ctx, {
          blockItemPrefix: "",
          flowChars: { start: "{", end: "}" },
          itemIndent: ctx.indent || "",
          onChompKeep,
          onComment
        });
      }
    };
    exports.YAMLMap = YAMLMap;
    exports.findPair = findPair;
  }
});

// node_modules/yaml/dist/schema/common/map.js
var require_map = __commonJS({
  "node_modules/yaml/dist/schema/common/map.js"(exports) {
    "use strict";
    var identity = require_identity();
    var YAMLMap = require_YAMLMap();
    var map = {
      collection: "map",
      default: true,
      nodeClass: YAMLMap.YAMLMap,
      tag: "tag:yaml.org,2002:map",
      resolve(map2, onError) {
        if (!identity.isMap(map2))
          onError("Expected a mapping for this tag");
        return map2;
      },
      createNode: (schema, obj, ctx) => YAMLMap.YAMLMap.from(schema, obj, ctx)
    };
    exports.map = map;
  }
});

// node_modules/yaml/dist/nodes/YAMLSeq.js
var require_YAMLSeq = __commonJS({
  "node_modules/yaml/dist/nodes/YAMLSeq.js"(exports) {
    "use strict";
    var createNode = require_createNode();
    var stringifyCollection = require_stringifyCollection();
    var Collection = require_Collection();
    var identity = require_identity();
    var Scalar = require_Scalar();
    var toJS = require_toJS();
    var YAMLSeq = class extends Collection.Collection {
      static get tagName() {
        return "tag:yaml.org,2002:seq";
      }
      constructor(schema) {
        super(identity.SEQ, schema);
        this.items = [];
      }
      add(value) {
        this.items.push(value);
      }
      /**
       * Removes a value from the collection.
       *
       * `key` must contain a representation of an integer for this to succeed.
       * It may be wrapped in a `Scalar`.
       *
       * @returns `true` if the item was found and removed.
       */
      delete(key) {
        const idx = asItemIndex(key);
        if (typeof idx !== "number")
          return false;
        const del = this.items.splice(idx, 1);
        return del.length > 0;
      }
      get(key, keepScalar) {
        const idx = asItemIndex(key);
        if (typeof idx !== "number")
          return void 0;
        const it = this.items[idx];
        return !keepScalar && identity.isScalar(it) ? it.value : it;
      }
      /**
       * Checks if the collection includes a value with the key `key`.
       *
       * `key` must contain a representation of an integer for this to succeed.
       * It may be wrapped in a `Scalar`.
       */
      has(key) {
        const idx = asItemIndex(key);
        return typeof idx === "number" && idx < this.items.length;
      }
      /**
       * Sets a value in this collection. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       *
       * If `key` does not contain a representation of an integer, this will throw.
       * It may be wrapped in a `Scalar`.
       */
      set(key, value) {
        const idx = asItemIndex(key);
        if (typeof idx !== "number")
          throw new Error(`Expected a valid index, not ${key}.`);
        const prev = this.items[idx];
        if (identity.isScalar(prev) && Scalar.isScalarValue(value))
          prev.value = value;
        else
          this.items[idx] = value;
      }
      toJSON(_, ctx) {
        const seq = [];
        if (ctx?.onCreate)
          ctx.onCreate(seq);
        let i = 0;
        for (const item of this.items)
          seq.push(toJS.toJS(item, String(i++), ctx));
        return seq;
      }
      toString(ctx, onComment, onChompKeep) {
        if (!ctx)
          return JSON.stringify(this);
        return stringifyCollection.stringifyCollection(this, ctx, {
          blockItemPrefix: "- ",
          flowChars: { start: "[", end: "]" },
          itemIndent: (ctx.indent || "") + "  ",
          onChompKeep,
          onComment
        });
      }
      static from(schema, obj, ctx) {
        const { replacer } = ctx;
        const seq = new this(schema);
        if (obj && Symbol.iterator in Object(obj)) {
          let i = 0;
          for (let it of obj) {
            if (typeof replacer === "function") {
              const key = obj instanceof Set ? it : String(i++);
              it = replacer.call(obj, key, it);
            }
            seq.items.push(createNode.createNode(it, void 0, ctx));
          }
        }
        return seq;
      }
    };
    function asItemIndex(key) {
      let idx = identity.isScalar(key) ? key.value : key;
      if (idx && typeof idx === "string")
        idx = Number(idx);
      return typeof idx === "number" && Number.isInteger(idx) && idx >= 0 ? idx : null;
    }
    exports.YAMLSeq = YAMLSeq;
  }
});

// node_modules/yaml/dist/schema/common/seq.js
var require_seq = __commonJS({
  "node_modules/yaml/dist/schema/common/seq.js"(exports) {
    "use strict";
    var identity = require_identity();
    var YAMLSeq = require_YAMLSeq();
    var seq = {
      collection: "seq",
      default: true,
      nodeClass: YAMLSeq.YAMLSeq,
      tag: "tag:yaml.org,2002:seq",
      resolve(seq2, onError) {
        if (!identity.isSeq(seq2))
          onError("Expected a sequence for this tag");
        return seq2;
      },
      createNode: (schema, obj, ctx) => YAMLSeq.YAMLSeq.from(schema, obj, ctx)
    };
    exports.seq = seq;
  }
});

// node_modules/yaml/dist/schema/common/string.js
var require_string = __commonJS({
  "node_modules/yaml/dist/schema/common/string.js"(exports) {
    "use strict";
    var stringifyString = require_stringifyString();
    var string = {
      identify: (value) => typeof value === "string",
      default: true,
      tag: "tag:yaml.org,2002:str",
      resolve: (str) => str,
      stringify(item, ctx, onComment, onChompKeep) {
        ctx = Object.assign({ actualString: true }, ctx);
        return stringifyString.stringifyString(item, ctx, onComment, onChompKeep);
      }
    };
    exports.string = string;
  }
});

// node_modules/yaml/dist/schema/common/null.js
var require_null = __commonJS({
  "node_modules/yaml/dist/schema/common/null.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var nullTag = {
      identify: (value) => value == null,
      createNode: () => new Scalar.Scalar(null),
      default: true,
      tag: "tag:yaml.org,2002:null",
      test: /^(?:~|[Nn]ull|NULL)?$/,
      resolve: () => new Scalar.Scalar(null),
      stringify: ({ source }, ctx) => typeof source === "string" && nullTag.test.test(source) ? source : ctx.options.nullStr
    };
    exports.nullTag = nullTag;
  }
});

// node_modules/yaml/dist/schema/core/bool.js
var require_bool = __commonJS({
  "node_modules/yaml/dist/schema/core/bool.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var boolTag = {
      identify: (value) => typeof value === "boolean",
      default: true,
      tag: "tag:yaml.org,2002:bool",
      test: /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
      resolve: (str) => new Scalar.Scalar(str[0] === "t" || str[0] === "T"),
      stringify({ source, value }, ctx) {
        if (source && boolTag.test.test(source)) {
          const sv = source[0] === "t" || source[0] === "T";
          if (value === sv)
            return source;
        }
        return value ? ctx.options.trueStr : ctx.options.falseStr;
      }
    };
    exports.boolTag = boolTag;
  }
});

// node_modules/yaml/dist/stringify/stringifyNumber.js
var require_stringifyNumber = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyNumber.js"(exports) {
    "use strict";
    function stringifyNumber({ format, minFractionDigits, tag, value }) {
      if (typeof value === "bigint")
        return String(value);
      const num2 = typeof value === "number" ? value : Number(value);
      if (!isFinite(num2))
        return isNaN(num2) ? ".nan" : num2 < 0 ? "-.inf" : ".inf";
      let n = Object.is(value, -0) ? "-0" : JSON.stringify(value);
      if (!format && minFractionDigits && (!tag || tag === "tag:yaml.org,2002:float") && /^-?\d/.test(n) && !n.includes("e")) {
        let i = n.indexOf(".");
        if (i < 0) {
          i = n.length;
          n += ".";
        }
        let d = minFractionDigits - (n.length - i - 1);
        while (d-- > 0)
          n += "0";
      }
      return n;
    }
    exports.stringifyNumber = stringifyNumber;
  }
});

// node_modules/yaml/dist/schema/core/float.js
var require_float = __commonJS({
  "node_modules/yaml/dist/schema/core/float.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var stringifyNumber = require_stringifyNumber();
    var floatNaN = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
      resolve: (str) => str.slice(-3).toLowerCase() === "nan" ? NaN : str[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY,
      stringify: stringifyNumber.stringifyNumber
    };
    var floatExp = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      format: "EXP",
      test: /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
      resolve: (str) => parseFloat(str),
      stringify(node) {
        const num2 = Number(node.value);
        return isFinite(num2) ? num2.toExponential() : stringifyNumber.stringifyNumber(node);
      }
    };
    var float = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
      resolve(str) {
        const node = new Scalar.Scalar(parseFloat(str));
        const dot = str.indexOf(".");
        if (dot !== -1 && str[str.length - 1] === "0")
          node.minFractionDigits = str.length - dot - 1;
        return node;
      },
      stringify: stringifyNumber.stringifyNumber
    };
    exports.float = float;
    exports.floatExp = floatExp;
    exports.floatNaN = floatNaN;
  }
});

// node_modules/yaml/dist/schema/core/int.js
var require_int = __commonJS({
  "node_modules/yaml/dist/schema/core/int.js"(exports) {
    "use strict";
    var stringifyNumber = require_stringifyNumber();
    var intIdentify = (value) => typeof value === "bigint" || Number.isInteger(value);
    var intResolve = (str, offset, radix, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str.substring(offset), radix);
    function intStringify(node, radix, prefix) {
      const { value } = node;
      if (intIdentify(value) && value >= 0)
        return prefix + value.toString(radix);
      return stringifyNumber.stringifyNumber(node);
    }
    var intOct = {
      identify: (value) => intIdentify(value) && value >= 0,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "OCT",
      test: /^0o[0-7]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 8, opt),
      stringify: (node) => intStringify(node, 8, "0o")
    };
    var int = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      test: /^[-+]?[0-9]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
      stringify: stringifyNumber.stringifyNumber
    };
    var intHex = {
      identify: (value) => intIdentify(value) && value >= 0,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "HEX",
      test: /^0x[0-9a-fA-F]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
      stringify: (node) => intStringify(node, 16, "0x")
    };
    exports.int = int;
    exports.intHex = intHex;
    exports.intOct = intOct;
  }
});

// node_modules/yaml/dist/schema/core/schema.js
var require_schema = __commonJS({
  "node_modules/yaml/dist/schema/core/schema.js"(exports) {
    "use strict";
    var map = require_map();
    var _null = require_null();
    var seq = require_seq();
    var string = require_string();
    var bool = require_bool();
    var float = require_float();
    var int = require_int();
    var schema = [
      map.map,
      seq.seq,
      string.string,
      _null.nullTag,
      bool.boolTag,
      int.intOct,
      int.int,
      int.intHex,
      float.floatNaN,
      float.floatExp,
      float.float
    ];
    exports.schema = schema;
  }
});

// node_modules/yaml/dist/schema/json/schema.js
var require_schema2 = __commonJS({
  "node_modules/yaml/dist/schema/json/schema.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var map = require_map();
    var seq = require_seq();
    function intIdentify(value) {
      return typeof value === "bigint" || Number.isInteger(value);
    }
    var stringifyJSON = ({ value }) => JSON.stringify(value);
    var jsonScalars = [
      {
        identify: (value) => typeof value === "string",
        default: true,
        tag: "tag:yaml.org,2002:str",
        resolve: (str) => str,
        stringify: stringifyJSON
      },
      {
        identify: (value) => value == null,
        createNode: () => new Scalar.Scalar(null),
        default: true,
        tag: "tag:yaml.org,2002:null",
        test: /^null$/,
        resolve: () => null,
        stringify: stringifyJSON
      },
      {
        identify: (value) => typeof value === "boolean",
        default: true,
        tag: "tag:yaml.org,2002:bool",
        test: /^true$|^false$/,
        resolve: (str) => str === "true",
        stringify: stringifyJSON
      },
      {
        identify: intIdentify,
        default: true,
        tag: "tag:yaml.org,2002:int",
        test: /^-?(?:0|[1-9][0-9]*)$/,
        resolve: (str, _onError, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str, 10),
        stringify: ({ value }) => intIdentify(value) ? value.toString() : JSON.stringify(value)
      },
      {
        identify: (value) => typeof value === "number",
        default: true,
        tag: "tag:yaml.org,2002:float",
        test: /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$/,
        resolve: (str) => parseFloat(str),
        stringify: stringifyJSON
      }
    ];
    var jsonError = {
      default: true,
      tag: "",
      test: /^/,
      resolve(str, onError) {
        onError(`Unresolved plain scalar ${JSON.stringify(str)}`);
        return str;
      }
    };
    var schema = [map.map, seq.seq].concat(jsonScalars, jsonError);
    exports.schema = schema;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/binary.js
var require_binary = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/binary.js"(exports) {
    "use strict";
    var node_buffer = __require("buffer");
    var Scalar = require_Scalar();
    var stringifyString = require_stringifyString();
    var binary = {
      identify: (value) => value instanceof Uint8Array,
      // Buffer inherits from Uint8Array
      default: false,
      tag: "tag:yaml.org,2002:binary",
      /**
       * Returns a Buffer in node and an Uint8Array in browsers
       *
       * To use the resulting buffer as an image, you'll want to do something like:
       *
       *   const blob = new Blob([buffer], { type: 'image/jpeg' })
       *   document.querySelector('#photo').src = URL.createObjectURL(blob)
       */
      resolve(src, onError) {
        if (typeof node_buffer.Buffer === "function") {
          return node_buffer.Buffer.from(src, "base64");
        } else if (typeof atob === "function") {
          const str = atob(src.replace(/[\n\r]/g, ""));
          const buffer = new Uint8Array(str.length);
          for (let i = 0; i < str.length; ++i)
            buffer[i] = str.charCodeAt(i);
          return buffer;
        } else {
          onError("This environment does not support reading binary tags; either Buffer or atob is required");
          return src;
        }
      },
      stringify({ comment, type, value }, ctx, onComment, onChompKeep) {
        if (!value)
          return "";
        const buf = value;
        let str;
        if (typeof node_buffer.Buffer === "function") {
          str = buf instanceof node_buffer.Buffer ? buf.toString("base64") : node_buffer.Buffer.from(buf.buffer).toString("base64");
        } else if (typeof btoa === "function") {
          let s = "";
          for (let i = 0; i < buf.length; ++i)
            s += String.fromCharCode(buf[i]);
          str = btoa(s);
        } else {
          throw new Error("This environment does not support writing binary tags; either Buffer or btoa is required");
        }
        type ?? (type = Scalar.Scalar.BLOCK_LITERAL);
        if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
          const lineWidth = Math.max(ctx.options.lineWidth - ctx.indent.length, ctx.options.minContentWidth);
          const n = Math.ceil(str.length / lineWidth);
          const lines = new Array(n);
          for (let i = 0, o = 0; i < n; ++i, o += lineWidth) {
            lines[i] = str.substr(o, lineWidth);
          }
          str = lines.join(type === Scalar.Scalar.BLOCK_LITERAL ? "\n" : " ");
        }
        return stringifyString.stringifyString({ comment, type, value: str }, ctx, onComment, onChompKeep);
      }
    };
    exports.binary = binary;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/pairs.js
var require_pairs = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/pairs.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Pair = require_Pair();
    var Scalar = require_Scalar();
    var YAMLSeq = require_YAMLSeq();
    function resolvePairs(seq, onError) {
      if (identity.isSeq(seq)) {
        for (let i = 0; i < seq.items.length; ++i) {
          let item = seq.items[i];
          if (identity.isPair(item))
            continue;
          else if (identity.isMap(item)) {
            if (item.items.length > 1)
              onError("Each pair must have its own sequence indicator");
            const pair = item.items[0] || new Pair.Pair(new Scalar.Scalar(null));
            if (item.commentBefore)
              pair.key.commentBefore = pair.key.commentBefore ? `${item.commentBefore}
${pair.key.commentBefore}` : item.commentBefore;
            if (item.comment) {
              const cn = pair.value ?? pair.key;
              cn.comment = cn.comment ? `${item.comment}
${cn.comment}` : item.comment;
            }
            item = pair;
          }
          seq.items[i] = identity.isPair(item) ? item : new Pair.Pair(item);
        }
      } else
        onError("Expected a sequence for this tag");
      return seq;
    }
    function createPairs(schema, iterable, ctx) {
      const { replacer } = ctx;
      const pairs2 = new YAMLSeq.YAMLSeq(schema);
      pairs2.tag = "tag:yaml.org,2002:pairs";
      let i = 0;
      if (iterable && Symbol.iterator in Object(iterable))
        for (let it of iterable) {
          if (typeof replacer === "function")
            it = replacer.call(iterable, String(i++), it);
          let key, value;
          if (Array.isArray(it)) {
            if (it.length === 2) {
              key = it[0];
              value = it[1];
            } else
              throw new TypeError(`Expected [key, value] tuple: ${it}`);
          } else if (it && it instanceof Object) {
            const keys = Object.keys(it);
            if (keys.length === 1) {
              key = keys[0];
              value = it[key];
            } else {
              throw new TypeError(`Expected tuple with one key, not ${keys.length} keys`);
            }
          } else {
            key = it;
          }
          pairs2.items.push(Pair.createPair(key, value, ctx));
        }
      return pairs2;
    }
    var pairs = {
      collection: "seq",
      default: false,
      tag: "tag:yaml.org,2002:pairs",
      resolve: resolvePairs,
      createNode: createPairs
    };
    exports.createPairs = createPairs;
    exports.pairs = pairs;
    exports.resolvePairs = resolvePairs;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/omap.js
var require_omap = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/omap.js"(exports) {
    "use strict";
    var identity = require_identity();
    var toJS = require_toJS();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var pairs = require_pairs();
    var YAMLOMap = class _YAMLOMap extends YAMLSeq.YAMLSeq {
      constructor() {
        super();
        this.add = YAMLMap.YAMLMap.prototype.add.bind(this);
        this.delete = YAMLMap.YAMLMap.prototype.delete.bind(this);
        this.get = YAMLMap.YAMLMap.prototype.get.bind(this);
        this.has = YAMLMap.YAMLMap.prototype.has.bind(this);
        this.set = YAMLMap.YAMLMap.prototype.set.bind(this);
        this.tag = _YAMLOMap.tag;
      }
      /**
       * If `ctx` is given, the return type is actually `Map<unknown, unknown>`,
       * but TypeScript won't allow widening the signature of a child method.
       */
      toJSON(_, ctx) {
        if (!ctx)
          return super.toJSON(_);
        const map = /* @__PURE__ */ new Map();
        if (ctx?.onCreate)
          ctx.onCreate(map);
        for (const pair of this.items) {
          let key, value;
          if (identity.isPair(pair)) {
            key = toJS.toJS(pair.key, "", ctx);
            value = toJS.toJS(pair.value, key, ctx);
          } else {
            key = toJS.toJS(pair, "", ctx);
          }
          if (map.has(key))
            throw new Error("Ordered maps must not include duplicate keys");
          map.set(key, value);
        }
        return map;
      }
      static from(schema, iterable, ctx) {
        const pairs$1 = pairs.createPairs(schema, iterable, ctx);
        const omap2 = new this();
        omap2.items = pairs$1.items;
        return omap2;
      }
    };
    YAMLOMap.tag = "tag:yaml.org,2002:omap";
    var omap = {
      collection: "seq",
      identify: (value) => value instanceof Map,
      nodeClass: YAMLOMap,
      default: false,
      tag: "tag:yaml.org,2002:omap",
      resolve(seq, onError) {
        const pairs$1 = pairs.resolvePairs(seq, onError);
        const seenKeys = [];
        for (const { key } of pairs$1.items) {
          if (identity.isScalar(key)) {
            if (seenKeys.includes(key.value)) {
              onError(`Ordered maps must not include duplicate keys: ${key.value}`);
            } else {
              seenKeys.push(key.value);
            }
          }
        }
        return Object.assign(new YAMLOMap(), pairs$1);
      },
      createNode: (schema, iterable, ctx) => YAMLOMap.from(schema, iterable, ctx)
    };
    exports.YAMLOMap = YAMLOMap;
    exports.omap = omap;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/bool.js
var require_bool2 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/bool.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    function boolStringify({ value, source }, ctx) {
      const boolObj = value ? trueTag : falseTag;
      if (source && boolObj.test.test(source))
        return source;
      return value ? ctx.options.trueStr : ctx.options.falseStr;
    }
    var trueTag = {
      identify: (value) => value === true,
      default: true,
      tag: "tag:yaml.org,2002:bool",
      test: /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/,
      resolve: () => new Scalar.Scalar(true),
      stringify: boolStringify
    };
    var falseTag = {
      identify: (value) => value === false,
      default: true,
      tag: "tag:yaml.org,2002:bool",
      test: /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
      resolve: () => new Scalar.Scalar(false),
      stringify: boolStringify
    };
    exports.falseTag = falseTag;
    exports.trueTag = trueTag;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/float.js
var require_float2 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/float.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var stringifyNumber = require_stringifyNumber();
    var floatNaN = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
      resolve: (str) => str.slice(-3).toLowerCase() === "nan" ? NaN : str[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY,
      stringify: stringifyNumber.stringifyNumber
    };
    var floatExp = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      format: "EXP",
      test: /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
      resolve: (str) => parseFloat(str.replace(/_/g, "")),
      stringify(node) {
        const num2 = Number(node.value);
        return isFinite(num2) ? num2.toExponential() : stringifyNumber.stringifyNumber(node);
      }
    };
    var float = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
      resolve(str) {
        const node = new Scalar.Scalar(parseFloat(str.replace(/_/g, "")));
        const dot = str.indexOf(".");
        if (dot !== -1) {
          const f = str.substring(dot + 1).replace(/_/g, "");
          if (f[f.length - 1] === "0")
            node.minFractionDigits = f.length;
        }
        return node;
      },
      stringify: stringifyNumber.stringifyNumber
    };
    exports.float = float;
    exports.floatExp = floatExp;
    exports.floatNaN = floatNaN;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/int.js
var require_int2 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/int.js"(exports) {
    "use strict";
    var stringifyNumber = require_stringifyNumber();
    var intIdentify = (value) => typeof value === "bigint" || Number.isInteger(value);
    function intResolve(str, offset, radix, { intAsBigInt }) {
      const sign = str[0];
      if (sign === "-" || sign === "+")
        offset += 1;
      str = str.substring(offset).replace(/_/g, "");
      if (intAsBigInt) {
        switch (radix) {
          case 2:
            str = `0b${str}`;
            break;
          case 8:
            str = `0o${str}`;
            break;
          case 16:
            str = `0x${str}`;
            break;
        }
        const n2 = BigInt(str);
        return sign === "-" ? BigInt(-1) * n2 : n2;
      }
      const n = parseInt(str, radix);
      return sign === "-" ? -1 * n : n;
    }
    function intStringify(node, radix, prefix) {
      const { value } = node;
      if (intIdentify(value)) {
        const str = value.toString(radix);
        return value < 0 ? "-" + prefix + str.substr(1) : prefix + str;
      }
      return stringifyNumber.stringifyNumber(node);
    }
    var intBin = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "BIN",
      test: /^[-+]?0b[0-1_]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 2, opt),
      stringify: (node) => intStringify(node, 2, "0b")
    };
    var intOct = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "OCT",
      test: /^[-+]?0[0-7_]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 1, 8, opt),
      stringify: (node) => intStringify(node, 8, "0")
    };
    var int = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      test: /^[-+]?[0-9][0-9_]*$/,
      resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
      stringify: stringifyNumber.stringifyNumber
    };
    var intHex = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "HEX",
      test: /^[-+]?0x[0-9a-fA-F_]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
      stringify: (node) => intStringify(node, 16, "0x")
    };
    exports.int = int;
    exports.intBin = intBin;
    exports.intHex = intHex;
    exports.intOct = intOct;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/set.js
var require_set = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/set.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Pair = require_Pair();
    var YAMLMap = require_YAMLMap();
    var YAMLSet = class _YAMLSet extends YAMLMap.YAMLMap {
      constructor(schema) {
        super(schema);
        this.tag = _YAMLSet.tag;
      }
      add(key) {
        let pair;
        if (identity.isPair(key))
          pair = key;
        else if (key && typeof key === "object" && "key" in key && "value" in key && key.value === null)
          pair = new Pair.Pair(key.key, null);
        else
          pair = new Pair.Pair(key, null);
        const prev = YAMLMap.findPair(this.items, pair.key);
        if (!prev)
          this.items.push(pair);
      }
      /**
       * If `keepPair` is `true`, returns the Pair matching `key`.
       * Otherwise, returns the value of that Pair's key.
       */
      get(key, keepPair) {
        const pair = YAMLMap.findPair(this.items, key);
        return !keepPair && identity.isPair(pair) ? identity.isScalar(pair.key) ? pair.key.value : pair.key : pair;
      }
      set(key, value) {
        if (typeof value !== "boolean")
          throw new Error(`Expected boolean value for set(key, value) in a YAML set, not ${typeof value}`);
        const prev = YAMLMap.findPair(this.items, key);
        if (prev && !value) {
          this.items.splice(this.items.indexOf(prev), 1);
        } else if (!prev && value) {
          this.items.push(new Pair.Pair(key));
        }
      }
      toJSON(_, ctx) {
        return super.toJSON(_, ctx, Set);
      }
      toString(ctx, onComment, onChompKeep) {
        if (!ctx)
          return JSON.stringify(this);
        if (this.hasAllNullValues(true))
          return super.toString(Object.assign({}, ctx, { allNullValues: true }), onComment, onChompKeep);
        else
          throw new Error("Set items must all have null values");
      }
      static from(schema, iterable, ctx) {
        const { replacer } = ctx;
        const set2 = new this(schema);
        if (iterable && Symbol.iterator in Object(iterable))
          for (let value of iterable) {
            if (typeof replacer === "function")
              value = replacer.call(iterable, value, value);
            set2.items.push(Pair.createPair(value, null, ctx));
          }
        return set2;
      }
    };
    YAMLSet.tag = "tag:yaml.org,2002:set";
    var set = {
      collection: "map",
      identify: (value) => value instanceof Set,
      nodeClass: YAMLSet,
      default: false,
      tag: "tag:yaml.org,2002:set",
      createNode: (schema, iterable, ctx) => YAMLSet.from(schema, iterable, ctx),
      resolve(map, onError) {
        if (identity.isMap(map)) {
          if (map.hasAllNullValues(true))
            return Object.assign(new YAMLSet(), map);
          else
            onError("Set items must all have null values");
        } else
          onError("Expected a mapping for this tag");
        return map;
      }
    };
    exports.YAMLSet = YAMLSet;
    exports.set = set;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/timestamp.js
var require_timestamp = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/timestamp.js"(exports) {
    "use strict";
    var stringifyNumber = require_stringifyNumber();
    function parseSexagesimal(str, asBigInt) {
      const sign = str[0];
      const parts2 = sign === "-" || sign === "+" ? str.substring(1) : str;
      const num2 = (n) => asBigInt ? BigInt(n) : Number(n);
      const res = parts2.replace(/_/g, "").split(":").reduce((res2, p) => res2 * num2(60) + num2(p), num2(0));
      return sign === "-" ? num2(-1) * res : res;
    }
    function stringifySexagesimal(node) {
      let { value } = node;
      let num2 = (n) => n;
      if (typeof value === "bigint")
        num2 = (n) => BigInt(n);
      else if (isNaN(value) || !isFinite(value))
        return stringifyNumber.stringifyNumber(node);
      let sign = "";
      if (value < 0) {
        sign = "-";
        value *= num2(-1);
      }
      const _60 = num2(60);
      const parts2 = [value % _60];
      if (value < 60) {
        parts2.unshift(0);
      } else {
        value = (value - parts2[0]) / _60;
        parts2.unshift(value % _60);
        if (value >= 60) {
          value = (value - parts2[0]) / _60;
          parts2.unshift(value);
        }
      }
      return sign + parts2.map((n) => String(n).padStart(2, "0")).join(":").replace(/000000\d*$/, "");
    }
    var intTime = {
      identify: (value) => typeof value === "bigint" || Number.isInteger(value),
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "TIME",
      test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/,
      resolve: (str, _onError, { intAsBigInt }) => parseSexagesimal(str, intAsBigInt),
      stringify: stringifySexagesimal
    };
    var floatTime = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      format: "TIME",
      test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
      resolve: (str) => parseSexagesimal(str, false),
      stringify: stringifySexagesimal
    };
    var timestamp = {
      identify: (value) => value instanceof Date,
      default: true,
      tag: "tag:yaml.org,2002:timestamp",
      // If the time zone is omitted, the timestamp is assumed to be specified in UTC. The time part
      // may be omitted altogether, resulting in a date format. In such a case, the time part is
      // assumed to be 00:00:00Z (start of day, UTC).
      test: RegExp("^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:t|T|[ \\t]+)([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\\.[0-9]+)?)(?:[ \\t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?)?$"),
      resolve(str) {
        const match = str.match(timestamp.test);
        if (!match)
          throw new Error("!!timestamp expects a date, starting with yyyy-mm-dd");
        const [, year, month, day, hour, minute, second] = match.map(Number);
        const millisec = match[7] ? Number((match[7] + "00").substr(1, 3)) : 0;
        let date = Date.UTC(year, month - 1, day, hour || 0, minute || 0, second || 0, millisec);
        const tz = match[8];
        if (tz && tz !== "Z") {
          let d = parseSexagesimal(tz, false);
          if (Math.abs(d) < 30)
            d *= 60;
          date -= 6e4 * d;
        }
        return new Date(date);
      },
      stringify: ({ value }) => value?.toISOString().replace(/(T00:00:00)?\.000Z$/, "") ?? ""
    };
    exports.floatTime = floatTime;
    exports.intTime = intTime;
    exports.timestamp = timestamp;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/schema.js
var require_schema3 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/schema.js"(exports) {
    "use strict";
    var map = require_map();
    var _null = require_null();
    var seq = require_seq();
    var string = require_string();
    var binary = require_binary();
    var bool = require_bool2();
    var float = require_float2();
    var int = require_int2();
    var merge = require_merge();
    var omap = require_omap();
    var pairs = require_pairs();
    var set = require_set();
    var timestamp = require_timestamp();
    var schema = [
      map.map,
      seq.seq,
      string.string,
      _null.nullTag,
      bool.trueTag,
      bool.falseTag,
      int.intBin,
      int.intOct,
      int.int,
      int.intHex,
      float.floatNaN,
      float.floatExp,
      float.float,
      binary.binary,
      merge.merge,
      omap.omap,
      pairs.pairs,
      set.set,
      timestamp.intTime,
      timestamp.floatTime,
      timestamp.timestamp
    ];
    exports.schema = schema;
  }
});

// node_modules/yaml/dist/schema/tags.js
var require_tags = __commonJS({
  "node_modules/yaml/dist/schema/tags.js"(exports) {
    "use strict";
    var map = require_map();
    var _null = require_null();
    var seq = require_seq();
    var string = require_string();
    var bool = require_bool();
    var float = require_float();
    var int = require_int();
    var schema = require_schema();
    var schema$1 = require_schema2();
    var binary = require_binary();
    var merge = require_merge();
    var omap = require_omap();
    var pairs = require_pairs();
    var schema$2 = require_schema3();
    var set = require_set();
    var timestamp = require_timestamp();
    var schemas = /* @__PURE__ */ new Map([
      ["core", schema.schema],
      ["failsafe", [map.map, seq.seq, string.string]],
      ["json", schema$1.schema],
      ["yaml11", schema$2.schema],
      ["yaml-1.1", schema$2.schema]
    ]);
    var tagsByName = {
      binary: binary.binary,
      bool: bool.boolTag,
      float: float.float,
      floatExp: float.floatExp,
      floatNaN: float.floatNaN,
      floatTime: timestamp.floatTime,
      int: int.int,
      intHex: int.intHex,
      intOct: int.intOct,
      intTime: timestamp.intTime,
      map: map.map,
      merge: merge.merge,
      null: _null.nullTag,
      omap: omap.omap,
      pairs: pairs.pairs,
      seq: seq.seq,
      set: set.set,
      timestamp: timestamp.timestamp
    };
    var coreKnownTags = {
      "tag:yaml.org,2002:binary": binary.binary,
      "tag:yaml.org,2002:merge": merge.merge,
      "tag:yaml.org,2002:omap": omap.omap,
      "tag:yaml.org,2002:pairs": pairs.pairs,
      "tag:yaml.org,2002:set": set.set,
      "tag:yaml.org,2002:timestamp": timestamp.timestamp
    };
    function getTags(customTags, schemaName, addMergeTag) {
      const schemaTags = schemas.get(schemaName);
      if (schemaTags && !customTags) {
        return addMergeTag && !schemaTags.includes(merge.merge) ? schemaTags.concat(merge.merge) : schemaTags.slice();
      }
      let tags = schemaTags;
      if (!tags) {
        if (Array.isArray(customTags))
          tags = [];
        else {
          const keys = Array.from(schemas.keys()).filter((key) => key !== "yaml11").map((key) => JSON.stringify(key)).join(", ");
          throw new Error(`Unknown schema "${schemaName}"; use one of ${keys} or define customTags array`);
        }
      }
      if (Array.isArray(customTags)) {
        for (const tag of customTags)
          tags = tags.concat(tag);
      } else if (typeof customTags === "function") {
        tags = customTags(tags.slice());
      }
      if (addMergeTag)
        tags = tags.concat(merge.merge);
      return tags.reduce((tags2, tag) => {
        const tagObj = typeof tag === "string" ? tagsByName[tag] : tag;
        if (!tagObj) {
          const tagName = JSON.stringify(tag);
          const keys = Object.keys(tagsByName).map((key) => JSON.stringify(key)).join(", ");
          throw new Error(`Unknown custom tag ${tagName}; use one of ${keys}`);
        }
        if (!tags2.includes(tagObj))
          tags2.push(tagObj);
        return tags2;
      }, []);
    }
    exports.coreKnownTags = coreKnownTags;
    exports.getTags = getTags;
  }
});

// node_modules/yaml/dist/schema/Schema.js
var require_Schema = __commonJS({
  "node_modules/yaml/dist/schema/Schema.js"(exports) {
    "use strict";
    var identity = require_identity();
    var map = require_map();
    var seq = require_seq();
    var string = require_string();
    var tags = require_tags();
    var sortMapEntriesByKey = (a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    var Schema = class _Schema {
      constructor({ compat, customTags, merge, resolveKnownTags, schema, sortMapEntries, toStringDefaults }) {
        this.compat = Array.isArray(compat) ? tags.getTags(compat, "compat") : compat ? tags.getTags(null, compat) : null;
        this.name = typeof schema === "string" && schema || "core";
        this.knownTags = resolveKnownTags ? tags.coreKnownTags : {};
        this.tags = tags.getTags(customTags, this.name, merge);
        this.toStringOptions = toStringDefaults ?? null;
        Object.defineProperty(this, identity.MAP, { value: map.map });
        Object.defineProperty(this, identity.SCALAR, { value: string.string });
        Object.defineProperty(this, identity.SEQ, { value: seq.seq });
        this.sortMapEntries = typeof sortMapEntries === "function" ? sortMapEntries : sortMapEntries === true ? sortMapEntriesByKey : null;
      }
      clone() {
        const copy = Object.create(_Schema.prototype, Object.getOwnPropertyDescriptors(this));
        copy.tags = this.tags.slice();
        return copy;
      }
    };
    exports.Schema = Schema;
  }
});

// node_modules/yaml/dist/stringify/stringifyDocument.js
var require_stringifyDocument = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyDocument.js"(exports) {
    "use strict";
    var identity = require_identity();
    var stringify3 = require_stringify();
    var stringifyComment = require_stringifyComment();
    function stringifyDocument(doc, options) {
      const lines = [];
      let hasDirectives = options.directives === true;
      if (options.directives !== false && doc.directives) {
        const dir = doc.directives.toString(doc);
        if (dir) {
          lines.push(dir);
          hasDirectives = true;
        } else if (doc.directives.docStart)
          hasDirectives = true;
      }
      if (hasDirectives)
        lines.push("---");
      const ctx = stringify3.createStringifyContext(doc, options);
      const { commentString } = ctx.options;
      if (doc.commentBefore) {
        if (lines.length !== 1)
          lines.unshift("");
        const cs = commentString(doc.commentBefore);
        lines.unshift(stringifyComment.indentComment(cs, ""));
      }
      let chompKeep = false;
      let contentComment = null;
      if (doc.contents) {
        if (identity.isNode(doc.contents)) {
          if (doc.contents.spaceBefore && hasDirectives)
            lines.push("");
          if (doc.contents.commentBefore) {
            const cs = commentString(doc.contents.commentBefore);
            lines.push(stringifyComment.indentComment(cs, ""));
          }
          ctx.forceBlockIndent = !!doc.comment;
          contentComment = doc.contents.comment;
        }
        const onChompKeep = contentComment ? void 0 : () => chompKeep = true;
        let body = stringify3.stringify(doc.contents, ctx, () => contentComment = null, onChompKeep);
        if (contentComment)
          body += stringifyComment.lineComment(body, "", commentString(contentComment));
        if ((body[0] === "|" || body[0] === ">") && lines[lines.length - 1] === "---") {
          lines[lines.length - 1] = `--- ${body}`;
        } else
          lines.push(body);
      } else {
        lines.push(stringify3.stringify(doc.contents, ctx));
      }
      if (doc.directives?.docEnd) {
        if (doc.comment) {
          const cs = commentString(doc.comment);
          if (cs.includes("\n")) {
            lines.push("...");
            lines.push(stringifyComment.indentComment(cs, ""));
          } else {
            lines.push(`... ${cs}`);
          }
        } else {
          lines.push("...");
        }
      } else {
        let dc = doc.comment;
        if (dc && chompKeep)
          dc = dc.replace(/^\n+/, "");
        if (dc) {
          if ((!chompKeep || contentComment) && lines[lines.length - 1] !== "")
            lines.push("");
          lines.push(stringifyComment.indentComment(commentString(dc), ""));
        }
      }
      return lines.join("\n") + "\n";
    }
    exports.stringifyDocument = stringifyDocument;
  }
});

// node_modules/yaml/dist/doc/Document.js
var require_Document = __commonJS({
  "node_modules/yaml/dist/doc/Document.js"(exports) {
    "use strict";
    var Alias = require_Alias();
    var Collection = require_Collection();
    var identity = require_identity();
    var Pair = require_Pair();
    var toJS = require_toJS();
    var Schema = require_Schema();
    var stringifyDocument = require_stringifyDocument();
    var anchors = require_anchors();
    var applyReviver = require_applyReviver();
    var createNode = require_createNode();
    var directives = require_directives();
    var Document = class _Document {
      constructor(value, replacer, options) {
        this.commentBefore = null;
        this.comment = null;
        this.errors = [];
        this.warnings = [];
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.DOC });
        let _replacer = null;
        if (typeof replacer === "function" || Array.isArray(replacer)) {
          _replacer = replacer;
        } else if (options === void 0 && replacer) {
          options = replacer;
          replacer = void 0;
        }
        const opt = Object.assign({
          intAsBigInt: false,
          keepSourceTokens: false,
          logLevel: "warn",
          prettyErrors: true,
          strict: true,
          stringKeys: false,
          uniqueKeys: true,
          version: "1.2"
        }, options);
        this.options = opt;
        let { version } = opt;
        if (options?._directives) {
          this.directives = options._directives.atDocument();
          if (this.directives.yaml.explicit)
            version = this.directives.yaml.version;
        } else
          this.directives = new directives.Directives({ version });
        this.setSchema(version, options);
        this.contents = value === void 0 ? null : this.createNode(value, _replacer, options);
      }
      /**
       * Create a deep copy of this Document and its contents.
       *
       * Custom Node values that inherit from `Object` still refer to their original instances.
       */
      clone() {
        const copy = Object.create(_Document.prototype, {
          [identity.NODE_TYPE]: { value: identity.DOC }
        });
        copy.commentBefore = this.commentBefore;
        copy.comment = this.comment;
        copy.errors = this.errors.slice();
        copy.warnings = this.warnings.slice();
        copy.options = Object.assign({}, this.options);
        if (this.directives)
          copy.directives = this.directives.clone();
        copy.schema = this.schema.clone();
        copy.contents = identity.isNode(this.contents) ? this.contents.clone(copy.schema) : this.contents;
        if (this.range)
          copy.range = this.range.slice();
        return copy;
      }
      /** Adds a value to the document. */
      add(value) {
        if (assertCollection(this.contents))
          this.contents.add(value);
      }
      /** Adds a value to the document. */
      addIn(path, value) {
        if (assertCollection(this.contents))
          this.contents.addIn(path, value);
      }
      /**
       * Create a new `Alias` node, ensuring that the target `node` has the required anchor.
       *
       * If `node` already has an anchor, `name` is ignored.
       * Otherwise, the `node.anchor` value will be set to `name`,
       * or if an anchor with that name is already present in the document,
       * `name` will be used as a prefix for a new unique anchor.
       * If `name` is undefined, the generated anchor will use 'a' as a prefix.
       */
      createAlias(node, name) {
        if (!node.anchor) {
          const prev = anchors.anchorNames(this);
          node.anchor = // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
          !name || prev.has(name) ? anchors.findNewAnchor(name || "a", prev) : name;
        }
        return new Alias.Alias(node.anchor);
      }
      createNode(value, replacer, options) {
        let _replacer = void 0;
        if (typeof replacer === "function") {
          value = replacer.call({ "": value }, "", value);
          _replacer = replacer;
        } else if (Array.isArray(replacer)) {
          const keyToStr = (v) => typeof v === "number" || v instanceof String || v instanceof Number;
          const asStr = replacer.filter(keyToStr).map(String);
          if (asStr.length > 0)
            replacer = replacer.concat(asStr);
          _replacer = replacer;
        } else if (options === void 0 && replacer) {
          options = replacer;
          replacer = void 0;
        }
        const { aliasDuplicateObjects, anchorPrefix, flow, keepUndefined, onTagObj, tag } = options ?? {};
        const { onAnchor, setAnchors, sourceObjects } = anchors.createNodeAnchors(
          this,
          // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
          anchorPrefix || "a"
        );
        const ctx = {
          aliasDuplicateObjects: aliasDuplicateObjects ?? true,
          keepUndefined: keepUndefined ?? false,
          onAnchor,
          onTagObj,
          replacer: _replacer,
          schema: this.schema,
          sourceObjects
        };
        const node = createNode.createNode(value, tag, ctx);
        if (flow && identity.isCollection(node))
          node.flow = true;
        setAnchors();
        return node;
      }
      /**
       * Convert a key and a value into a `Pair` using the current schema,
       * recursively wrapping all values as `Scalar` or `Collection` nodes.
       */
      createPair(key, value, options = {}) {
        const k = this.createNode(key, null, options);
        const v = this.createNode(value, null, options);
        return new Pair.Pair(k, v);
      }
      /**
       * Removes a value from the document.
       * @returns `true` if the item was found and removed.
       */
      delete(key) {
        return assertCollection(this.contents) ? this.contents.delete(key) : false;
      }
      /**
       * Removes a value from the document.
       * @returns `true` if the item was found and removed.
       */
      deleteIn(path) {
        if (Collection.isEmptyPath(path)) {
          if (this.contents == null)
            return false;
          this.contents = null;
          return true;
        }
        return assertCollection(this.contents) ? this.contents.deleteIn(path) : false;
      }
      /**
       * Returns item at `key`, or `undefined` if not found. By default unwraps
       * scalar values from their surrounding node; to disable set `keepScalar` to
       * `true` (collections are always returned intact).
       */
      get(key, keepScalar) {
        return identity.isCollection(this.contents) ? this.contents.get(key, keepScalar) : void 0;
      }
      /**
       * Returns item at `path`, or `undefined` if not found. By default unwraps
       * scalar values from their surrounding node; to disable set `keepScalar` to
       * `true` (collections are always returned intact).
       */
      getIn(path, keepScalar) {
        if (Collection.isEmptyPath(path))
          return !keepScalar && identity.isScalar(this.contents) ? this.contents.value : this.contents;
        return identity.isCollection(this.contents) ? this.contents.getIn(path, keepScalar) : void 0;
      }
      /**
       * Checks if the document includes a value with the key `key`.
       */
      has(key) {
        return identity.isCollection(this.contents) ? this.contents.has(key) : false;
      }
      /**
       * Checks if the document includes a value at `path`.
       */
      hasIn(path) {
        if (Collection.isEmptyPath(path))
          return this.contents !== void 0;
        return identity.isCollection(this.contents) ? this.contents.hasIn(path) : false;
      }
      /**
       * Sets a value in this document. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       */
      set(key, value) {
        if (this.contents == null) {
          this.contents = Collection.collectionFromPath(this.schema, [key], value);
        } else if (assertCollection(this.contents)) {
          this.contents.set(key, value);
        }
      }
      /**
       * Sets a value in this document. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       */
      setIn(path, value) {
        if (Collection.isEmptyPath(path)) {
          this.contents = value;
        } else if (this.contents == null) {
          this.contents = Collection.collectionFromPath(this.schema, Array.from(path), value);
        } else if (assertCollection(this.contents)) {
          this.contents.setIn(path, value);
        }
      }
      /**
       * Change the YAML version and schema used by the document.
       * A `null` version disables support for directives, explicit tags, anchors, and aliases.
       * It also requires the `schema` option to be given as a `Schema` instance value.
       *
       * Overrides all previously set schema options.
       */
      setSchema(version, options = {}) {
        if (typeof version === "number")
          version = String(version);
        let opt;
        switch (version) {
          case "1.1":
            if (this.directives)
              this.directives.yaml.version = "1.1";
            else
              this.directives = new directives.Directives({ version: "1.1" });
            opt = { resolveKnownTags: false, schema: "yaml-1.1" };
            break;
          case "1.2":
          case "next":
            if (this.directives)
              this.directives.yaml.version = version;
            else
              this.directives = new directives.Directives({ version });
            opt = { resolveKnownTags: true, schema: "core" };
            break;
          case null:
            if (this.directives)
              delete this.directives;
            opt = null;
            break;
          default: {
            const sv = JSON.stringify(version);
            throw new Error(`Expected '1.1', '1.2' or null as first argument, but found: ${sv}`);
          }
        }
        if (options.schema instanceof Object)
          this.schema = options.schema;
        else if (opt)
          this.schema = new Schema.Schema(Object.assign(opt, options));
        else
          throw new Error(`With a null YAML version, the { schema: Schema } option is required`);
      }
      // json & jsonArg are only used from toJSON()
      toJS({ json, jsonArg, mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        const ctx = {
          anchors: /* @__PURE__ */ new Map(),
          doc: this,
          keep: !json,
          mapAsMap: mapAsMap === true,
          mapKeyWarned: false,
          maxAliasCount: typeof maxAliasCount === "number" ? maxAliasCount : 100
        };
        const res = toJS.toJS(this.contents, jsonArg ?? "", ctx);
        if (typeof onAnchor === "function")
          for (const { count, res: res2 } of ctx.anchors.values())
            onAnchor(res2, count);
        return typeof reviver === "function" ? applyReviver.applyReviver(reviver, { "": res }, "", res) : res;
      }
      /**
       * A JSON representation of the document `contents`.
       *
       * @param jsonArg Used by `JSON.stringify` to indicate the array index or
       *   property name.
       */
      toJSON(jsonArg, onAnchor) {
        return this.toJS({ json: true, jsonArg, mapAsMap: false, onAnchor });
      }
      /** A YAML representation of the document. */
      toString(options = {}) {
        if (this.errors.length > 0)
          throw new Error("Document with errors cannot be stringified");
        if ("indent" in options && (!Number.isInteger(options.indent) || Number(options.indent) <= 0)) {
          const s = JSON.stringify(options.indent);
          throw new Error(`"indent" option must be a positive integer, not ${s}`);
        }
        return stringifyDocument.stringifyDocument(this, options);
      }
    };
    function assertCollection(contents) {
      if (identity.isCollection(contents))
        return true;
      throw new Error("Expected a YAML collection as document contents");
    }
    exports.Document = Document;
  }
});

// node_modules/yaml/dist/errors.js
var require_errors = __commonJS({
  "node_modules/yaml/dist/errors.js"(exports) {
    "use strict";
    var YAMLError = class extends Error {
      constructor(name, pos, code, message) {
        super();
        this.name = name;
        this.code = code;
        this.message = message;
        this.pos = pos;
      }
    };
    var YAMLParseError = class extends YAMLError {
      constructor(pos, code, message) {
        super("YAMLParseError", pos, code, message);
      }
    };
    var YAMLWarning = class extends YAMLError {
      constructor(pos, code, message) {
        super("YAMLWarning", pos, code, message);
      }
    };
    var prettifyError = (src, lc) => (error) => {
      if (error.pos[0] === -1)
        return;
      error.linePos = error.pos.map((pos) => lc.linePos(pos));
      const { line, col } = error.linePos[0];
      error.message += ` at line ${line}, column ${col}`;
      let ci = col - 1;
      let lineStr = src.substring(lc.lineStarts[line - 1], lc.lineStarts[line]).replace(/[\n\r]+$/, "");
      if (ci >= 60 && lineStr.length > 80) {
        const trimStart = Math.min(ci - 39, lineStr.length - 79);
        lineStr = "\u2026" + lineStr.substring(trimStart);
        ci -= trimStart - 1;
      }
      if (lineStr.length > 80)
        lineStr = lineStr.substring(0, 79) + "\u2026";
      if (line > 1 && /^ *$/.test(lineStr.substring(0, ci))) {
        let prev = src.substring(lc.lineStarts[line - 2], lc.lineStarts[line - 1]);
        if (prev.length > 80)
          prev = prev.substring(0, 79) + "\u2026\n";
        lineStr = prev + lineStr;
      }
      if (/[^ ]/.test(lineStr)) {
        let count = 1;
        const end = error.linePos[1];
        if (end?.line === line && end.col > col) {
          count = Math.max(1, Math.min(end.col - col, 80 - ci));
        }
        const pointer = " ".repeat(ci) + "^".repeat(count);
        error.message += `:

${lineStr}
${pointer}
`;
      }
    };
    exports.YAMLError = YAMLError;
    exports.YAMLParseError = YAMLParseError;
    exports.YAMLWarning = YAMLWarning;
    exports.prettifyError = prettifyError;
  }
});

// node_modules/yaml/dist/compose/resolve-props.js
var require_resolve_props = __commonJS({
  "node_modules/yaml/dist/compose/resolve-props.js"(exports) {
    "use strict";
    function resolveProps(tokens, { flow, indicator, next, offset, onError, parentIndent, startOnNewline }) {
      let spaceBefore = false;
      let atNewline = startOnNewline;
      let hasSpace = startOnNewline;
      let comment = "";
      let commentSep = "";
      let hasNewline = false;
      let reqSpace = false;
      let tab = null;
      let anchor = null;
      let tag = null;
      let newlineAfterProp = null;
      let comma = null;
      let found = null;
      let start = null;
      for (const token of tokens) {
        if (reqSpace) {
          if (token.type !== "space" && token.type !== "newline" && token.type !== "comma")
            onError(token.offset, "MISSING_CHAR", "Tags and anchors must be separated from the next token by white space");
          reqSpace = false;
        }
        if (tab) {
          if (atNewline && token.type !== "comment" && token.type !== "newline") {
            onError(tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation");
          }
          tab = null;
        }
        switch (token.type) {
          case "space":
            if (!flow && (indicator !== "doc-start" || next?.type !== "flow-collection") && token.source.includes("	")) {
              tab = token;
            }
            hasSpace = true;
            break;
          case "comment": {
            if (!hasSpace)
              onError(token, "MISSING_CHAR", "Comments must be separated from other tokens by white space characters");
            const cb = token.source.substring(1) || " ";
            if (!comment)
              comment = cb;
            else
              comment += commentSep + cb;
            commentSep = "";
            atNewline = false;
            break;
          }
          case "newline":
            if (atNewline) {
              if (comment)
                comment += token.source;
              else if (!found || indicator !== "seq-item-ind")
                spaceBefore = true;
            } else
              commentSep += token.source;
            atNewline = true;
            hasNewline = true;
            if (anchor || tag)
              newlineAfterProp = token;
            hasSpace = true;
            break;
          case "anchor":
            if (anchor)
              onError(token, "MULTIPLE_ANCHORS", "A node can have at most one anchor");
            if (token.source.endsWith(":"))
              onError(token.offset + token.source.length - 1, "BAD_ALIAS", "Anchor ending in : is ambiguous", true);
            anchor = token;
            start ?? (start = token.offset);
            atNewline = false;
            hasSpace = false;
            reqSpace = true;
            break;
          case "tag": {
            if (tag)
              onError(token, "MULTIPLE_TAGS", "A node can have at most one tag");
            tag = token;
            start ?? (start = token.offset);
            atNewline = false;
            hasSpace = false;
            reqSpace = true;
            break;
          }
          case indicator:
            if (anchor || tag)
              onError(token, "BAD_PROP_ORDER", `Anchors and tags must be after the ${token.source} indicator`);
            if (found)
              onError(token, "UNEXPECTED_TOKEN", `Unexpected ${token.source} in ${flow ?? "collection"}`);
            found = token;
            atNewline = indicator === "seq-item-ind" || indicator === "explicit-key-ind";
            hasSpace = false;
            break;
          case "comma":
            if (flow) {
              if (comma)
                onError(token, "UNEXPECTED_TOKEN", `Unexpected , in ${flow}`);
              comma = token;
              atNewline = false;
              hasSpace = false;
              break;
            }
          // else fallthrough
          default:
            onError(token, "UNEXPECTED_TOKEN", `Unexpected ${token.type} token`);
            atNewline = false;
            hasSpace = false;
        }
      }
      const last = tokens[tokens.length - 1];
      const end = last ? last.offset + last.source.length : offset;
      if (reqSpace && next && next.type !== "space" && next.type !== "newline" && next.type !== "comma" && (next.type !== "scalar" || next.source !== "")) {
        onError(next.offset, "MISSING_CHAR", "Tags and anchors must be separated from the next token by white space");
      }
      if (tab && (atNewline && tab.indent <= parentIndent || next?.type === "block-map" || next?.type === "block-seq"))
        onError(tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation");
      return {
        comma,
        found,
        spaceBefore,
        comment,
        hasNewline,
        anchor,
        tag,
        newlineAfterProp,
        end,
        start: start ?? end
      };
    }
    exports.resolveProps = resolveProps;
  }
});

// node_modules/yaml/dist/compose/util-contains-newline.js
var require_util_contains_newline = __commonJS({
  "node_modules/yaml/dist/compose/util-contains-newline.js"(exports) {
    "use strict";
    function containsNewline(key) {
      if (!key)
        return null;
      switch (key.type) {
        case "alias":
        case "scalar":
        case "double-quoted-scalar":
        case "single-quoted-scalar":
          if (key.source.includes("\n"))
            return true;
          if (key.end) {
            for (const st of key.end)
              if (st.type === "newline")
                return true;
          }
          return false;
        case "flow-collection":
          for (const it of key.items) {
            for (const st of it.start)
              if (st.type === "newline")
                return true;
            if (it.sep) {
              for (const st of it.sep)
                if (st.type === "newline")
                  return true;
            }
            if (containsNewline(it.key) || containsNewline(it.value))
              return true;
          }
          return false;
        default:
          return true;
      }
    }
    exports.containsNewline = containsNewline;
  }
});

// node_modules/yaml/dist/compose/util-flow-indent-check.js
var require_util_flow_indent_check = __commonJS({
  "node_modules/yaml/dist/compose/util-flow-indent-check.js"(exports) {
    "use strict";
    var utilContainsNewline = require_util_contains_newline();
    function flowIndentCheck(indent, fc, onError) {
      if (fc?.type === "flow-collection") {
        const end = fc.end[0];
        if (end.indent === indent && (end.source === "]" || end.source === "}") && utilContainsNewline.containsNewline(fc)) {
          const msg = "Flow end indicator should be more indented than parent";
          onError(end, "BAD_INDENT", msg, true);
        }
      }
    }
    exports.flowIndentCheck = flowIndentCheck;
  }
});

// node_modules/yaml/dist/compose/util-map-includes.js
var require_util_map_includes = __commonJS({
  "node_modules/yaml/dist/compose/util-map-includes.js"(exports) {
    "use strict";
    var identity = require_identity();
    function mapIncludes(ctx, items, search) {
      const { uniqueKeys } = ctx.options;
      if (uniqueKeys === false)
        return false;
      const isEqual = typeof uniqueKeys === "function" ? uniqueKeys : (a, b) => a === b || identity.isScalar(a) && identity.isScalar(b) && a.value === b.value;
      return items.some((pair) => isEqual(pair.key, search));
    }
    exports.mapIncludes = mapIncludes;
  }
});

// node_modules/yaml/dist/compose/resolve-block-map.js
var require_resolve_block_map = __commonJS({
  "node_modules/yaml/dist/compose/resolve-block-map.js"(exports) {
    "use strict";
    var Pair = require_Pair();
    var YAMLMap = require_YAMLMap();
    var resolveProps = require_resolve_props();
    var utilContainsNewline = require_util_contains_newline();
    var utilFlowIndentCheck = require_util_flow_indent_check();
    var utilMapIncludes = require_util_map_includes();
    var startColMsg = "All mapping items must start at the same column";
    function resolveBlockMap({ composeNode, composeEmptyNode }, ctx, bm, onError, tag) {
      const NodeClass = tag?.nodeClass ?? YAMLMap.YAMLMap;
      const map = new NodeClass(ctx.schema);
      if (ctx.atRoot)
        ctx.atRoot = false;
      let offset = bm.offset;
      let commentEnd = null;
      for (const collItem of bm.items) {
        const { start, key, sep, value } = collItem;
        const keyProps = resolveProps.resolveProps(start, {
          indicator: "explicit-key-ind",
          next: key ?? sep?.[0],
          offset,
          onError,
          parentIndent: bm.indent,
          startOnNewline: true
        });
        const implicitKey = !keyProps.found;
        if (implicitKey) {
          if (key) {
            if (key.type === "block-seq")
              onError(offset, "BLOCK_AS_IMPLICIT_KEY", "A block sequence may not be used as an implicit map key");
            else if ("indent" in key && key.indent !== bm.indent)
              onError(offset, "BAD_INDENT", startColMsg);
          }
          if (!keyProps.anchor && !keyProps.tag && !sep) {
            commentEnd = keyProps.end;
            if (keyProps.comment) {
              if (map.comment)
                map.comment += "\n" + keyProps.comment;
              else
                map.comment = keyProps.comment;
            }
            continue;
          }
          if (keyProps.newlineAfterProp || utilContainsNewline.containsNewline(key)) {
            onError(key ?? start[start.length - 1], "MULTILINE_IMPLICIT_KEY", "Implicit keys need to be on a single line");
          }
        } else if (keyProps.found?.indent !== bm.indent) {
          onError(offset, "BAD_INDENT", startColMsg);
        }
        ctx.atKey = true;
        const keyStart = keyProps.end;
        const keyNode = key ? composeNode(ctx, key, keyProps, onError) : composeEmptyNode(ctx, keyStart, start, null, keyProps, onError);
        if (ctx.schema.compat)
          utilFlowIndentCheck.flowIndentCheck(bm.indent, key, onError);
        ctx.atKey = false;
        if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
          onError(keyStart, "DUPLICATE_KEY", "Map keys must be unique");
        const valueProps = resolveProps.resolveProps(sep ?? [], {
          indicator: "map-value-ind",
          next: value,
          offset: keyNode.range[2],
          onError,
          parentIndent: bm.indent,
          startOnNewline: !key || key.type === "block-scalar"
        });
        offset = valueProps.end;
        if (valueProps.found) {
          if (implicitKey) {
            if (value?.type === "block-map" && !valueProps.hasNewline)
              onError(offset, "BLOCK_AS_IMPLICIT_KEY", "Nested mappings are not allowed in compact mappings");
            if (ctx.options.strict && keyProps.start < valueProps.found.offset - 1024)
              onError(keyNode.range, "KEY_OVER_1024_CHARS", "The : indicator must be at most 1024 chars after the start of an implicit block mapping key");
          }
          const valueNode = value ? composeNode(ctx, value, valueProps, onError) : composeEmptyNode(ctx, offset, sep, null, valueProps, onError);
          if (ctx.schema.compat)
            utilFlowIndentCheck.flowIndentCheck(bm.indent, value, onError);
          offset = valueNode.range[2];
          const pair = new Pair.Pair(keyNode, valueNode);
          if (ctx.options.keepSourceTokens)
            pair.srcToken = collItem;
          map.items.push(pair);
        } else {
          if (implicitKey)
            onError(keyNode.range, "MISSING_CHAR", "Implicit map keys need to be followed by map values");
          if (valueProps.comment) {
            if (keyNode.comment)
              keyNode.comment += "\n" + valueProps.comment;
            else
              keyNode.comment = valueProps.comment;
          }
          const pair = new Pair.Pair(keyNode);
          if (ctx.options.keepSourceTokens)
            pair.srcToken = collItem;
          map.items.push(pair);
        }
      }
      if (commentEnd && commentEnd < offset)
        onError(commentEnd, "IMPOSSIBLE", "Map comment with trailing content");
      map.range = [bm.offset, offset, commentEnd ?? offset];
      return map;
    }
    exports.resolveBlockMap = resolveBlockMap;
  }
});

// node_modules/yaml/dist/compose/resolve-block-seq.js
var require_resolve_block_seq = __commonJS({
  "node_modules/yaml/dist/compose/resolve-block-seq.js"(exports) {
    "use strict";
    var YAMLSeq = require_YAMLSeq();
    var resolveProps = require_resolve_props();
    var utilFlowIndentCheck = require_util_flow_indent_check();
    function resolveBlockSeq({ composeNode, composeEmptyNode }, ctx, bs, onError, tag) {
      const NodeClass = tag?.nodeClass ?? YAMLSeq.YAMLSeq;
      const seq = new NodeClass(ctx.schema);
      if (ctx.atRoot)
        ctx.atRoot = false;
      if (ctx.atKey)
        ctx.atKey = false;
      let offset = bs.offset;
      let commentEnd = null;
      for (const { start, value } of bs.items) {
        const props = resolveProps.resolveProps(start, {
          indicator: "seq-item-ind",
          next: value,
          offset,
          onError,
          parentIndent: bs.indent,
          startOnNewline: true
        });
        if (!props.found) {
          if (props.anchor || props.tag || value) {
            if (value?.type === "block-seq")
              onError(props.end, "BAD_INDENT", "All sequence items must start at the same column");
            else
              onError(offset, "MISSING_CHAR", "Sequence item without - indicator");
          } else {
            commentEnd = props.end;
            if (props.comment)
              seq.comment = props.comment;
            continue;
          }
        }
        const node = value ? composeNode(ctx, value, props, onError) : composeEmptyNode(ctx, props.end, start, null, props, onError);
        if (ctx.schema.compat)
          utilFlowIndentCheck.flowIndentCheck(bs.indent, value, onError);
        offset = node.range[2];
        seq.items.push(node);
      }
      seq.range = [bs.offset, offset, commentEnd ?? offset];
      return seq;
    }
    exports.resolveBlockSeq = resolveBlockSeq;
  }
});

// node_modules/yaml/dist/compose/resolve-end.js
var require_resolve_end = __commonJS({
  "node_modules/yaml/dist/compose/resolve-end.js"(exports) {
    "use strict";
    function resolveEnd(end, offset, reqSpace, onError) {
      let comment = "";
      if (end) {
        let hasSpace = false;
        let sep = "";
        for (const token of end) {
          const { source, type } = token;
          switch (type) {
            case "space":
              hasSpace = true;
              break;
            case "comment": {
              if (reqSpace && !hasSpace)
                onError(token, "MISSING_CHAR", "Comments must be separated from other tokens by white space characters");
              const cb = source.substring(1) || " ";
              if (!comment)
                comment = cb;
              else
                comment += sep + cb;
              sep = "";
              break;
            }
            case "newline":
              if (comment)
                sep += source;
              hasSpace = true;
              break;
            default:
              onError(token, "UNEXPECTED_TOKEN", `Unexpected ${type} at node end`);
          }
          offset += source.length;
        }
      }
      return { comment, offset };
    }
    exports.resolveEnd = resolveEnd;
  }
});

// node_modules/yaml/dist/compose/resolve-flow-collection.js
var require_resolve_flow_collection = __commonJS({
  "node_modules/yaml/dist/compose/resolve-flow-collection.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Pair = require_Pair();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var resolveEnd = require_resolve_end();
    var resolveProps = require_resolve_props();
    var utilContainsNewline = require_util_contains_newline();
    var utilMapIncludes = require_util_map_includes();
    var blockMsg = "Block collections are not allowed within flow collections";
    var isBlock = (token) => token && (token.type === "block-map" || token.type === "block-seq");
    function resolveFlowCollection({ composeNode, composeEmptyNode }, ctx, fc, onError, tag) {
      const isMap2 = fc.start.source === "{";
      const fcName = isMap2 ? "flow map" : "flow sequence";
      const NodeClass = tag?.nodeClass ?? (isMap2 ? YAMLMap.YAMLMap : YAMLSeq.YAMLSeq);
      const coll = new NodeClass(ctx.schema);
      coll.flow = true;
      const atRoot = ctx.atRoot;
      if (atRoot)
        ctx.atRoot = false;
      if (ctx.atKey)
        ctx.atKey = false;
      let offset = fc.offset + fc.start.source.length;
      for (let i = 0; i < fc.items.length; ++i) {
        const collItem = fc.items[i];
        const { start, key, sep, value } = collItem;
        const props = resolveProps.resolveProps(start, {
          flow: fcName,
          indicator: "explicit-key-ind",
          next: key ?? sep?.[0],
          offset,
          onError,
          parentIndent: fc.indent,
          startOnNewline: false
        });
        if (!props.found) {
          if (!props.anchor && !props.tag && !sep && !value) {
            if (i === 0 && props.comma)
              onError(props.comma, "UNEXPECTED_TOKEN", `Unexpected , in ${fcName}`);
            else if (i < fc.items.length - 1)
              onError(props.start, "UNEXPECTED_TOKEN", `Unexpected empty item in ${fcName}`);
            if (props.comment) {
              if (coll.comment)
                coll.comment += "\n" + props.comment;
              else
                coll.comment = props.comment;
            }
            offset = props.end;
            continue;
          }
          if (!isMap2 && ctx.options.strict && utilContainsNewline.containsNewline(key))
            onError(
              key,
              // checked by containsNewline()
              "MULTILINE_IMPLICIT_KEY",
              "Implicit keys of flow sequence pairs need to be on a single line"
            );
        }
        if (i === 0) {
          if (props.comma)
            onError(props.comma, "UNEXPECTED_TOKEN", `Unexpected , in ${fcName}`);
        } else {
          if (!props.comma)
            onError(props.start, "MISSING_CHAR", `Missing , between ${fcName} items`);
          if (props.comment) {
            let prevItemComment = "";
            loop: for (const st of start) {
              switch (st.type) {
                case "comma":
                case "space":
                  break;
                case "comment":
                  prevItemComment = st.source.substring(1);
                  break loop;
                default:
                  break loop;
              }
            }
            if (prevItemComment) {
              let prev = coll.items[coll.items.length - 1];
              if (identity.isPair(prev))
                prev = prev.value ?? prev.key;
              if (prev.comment)
                prev.comment += "\n" + prevItemComment;
              else
                prev.comment = prevItemComment;
              props.comment = props.comment.substring(prevItemComment.length + 1);
            }
          }
        }
        if (!isMap2 && !sep && !props.found) {
          const valueNode = value ? composeNode(ctx, value, props, onError) : composeEmptyNode(ctx, props.end, sep, null, props, onError);
          coll.items.push(valueNode);
          offset = valueNode.range[2];
          if (isBlock(value))
            onError(valueNode.range, "BLOCK_IN_FLOW", blockMsg);
        } else {
          ctx.atKey = true;
          const keyStart = props.end;
          const keyNode = key ? composeNode(ctx, key, props, onError) : composeEmptyNode(ctx, keyStart, start, null, props, onError);
          if (isBlock(key))
            onError(keyNode.range, "BLOCK_IN_FLOW", blockMsg);
          ctx.atKey = false;
          const valueProps = resolveProps.resolveProps(sep ?? [], {
            flow: fcName,
            indicator: "map-value-ind",
            next: value,
            offset: keyNode.range[2],
            onError,
            parentIndent: fc.indent,
            startOnNewline: false
          });
          if (valueProps.found) {
            if (!isMap2 && !props.found && ctx.options.strict) {
              if (sep)
                for (const st of sep) {
                  if (st === valueProps.found)
                    break;
                  if (st.type === "newline") {
                    onError(st, "MULTILINE_IMPLICIT_KEY", "Implicit keys of flow sequence pairs need to be on a single line");
                    break;
                  }
                }
              if (props.start < valueProps.found.offset - 1024)
                onError(valueProps.found, "KEY_OVER_1024_CHARS", "The : indicator must be at most 1024 chars after the start of an implicit flow sequence key");
            }
          } else if (value) {
            if ("source" in value && value.source?.[0] === ":")
              onError(value, "MISSING_CHAR", `Missing space after : in ${fcName}`);
            else
              onError(valueProps.start, "MISSING_CHAR", `Missing , or : between ${fcName} items`);
          }
          const valueNode = value ? composeNode(ctx, value, valueProps, onError) : valueProps.found ? composeEmptyNode(ctx, valueProps.end, sep, null, valueProps, onError) : null;
          if (valueNode) {
            if (isBlock(value))
              onError(valueNode.range, "BLOCK_IN_FLOW", blockMsg);
          } else if (valueProps.comment) {
            if (keyNode.comment)
              keyNode.comment += "\n" + valueProps.comment;
            else
              keyNode.comment = valueProps.comment;
          }
          const pair = new Pair.Pair(keyNode, valueNode);
          if (ctx.options.keepSourceTokens)
            pair.srcToken = collItem;
          if (isMap2) {
            const map = coll;
            if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
              onError(keyStart, "DUPLICATE_KEY", "Map keys must be unique");
            map.items.push(pair);
          } else {
            const map = new YAMLMap.YAMLMap(ctx.schema);
            map.flow = true;
            map.items.push(pair);
            const endRange = (valueNode ?? keyNode).range;
            map.range = [keyNode.range[0], endRange[1], endRange[2]];
            coll.items.push(map);
          }
          offset = valueNode ? valueNode.range[2] : valueProps.end;
        }
      }
      const expectedEnd = isMap2 ? "}" : "]";
      const [ce, ...ee] = fc.end;
      let cePos = offset;
      if (ce?.source === expectedEnd)
        cePos = ce.offset + ce.source.length;
      else {
        const name = fcName[0].toUpperCase() + fcName.substring(1);
        const msg = atRoot ? `${name} must end with a ${expectedEnd}` : `${name} in block collection must be sufficiently indented and end with a ${expectedEnd}`;
        onError(offset, atRoot ? "MISSING_CHAR" : "BAD_INDENT", msg);
        if (ce && ce.source.length !== 1)
          ee.unshift(ce);
      }
      if (ee.length > 0) {
        const end = resolveEnd.resolveEnd(ee, cePos, ctx.options.strict, onError);
        if (end.comment) {
          if (coll.comment)
            coll.comment += "\n" + end.comment;
          else
            coll.comment = end.comment;
        }
        coll.range = [fc.offset, cePos, end.offset];
      } else {
        coll.range = [fc.offset, cePos, cePos];
      }
      return coll;
    }
    exports.resolveFlowCollection = resolveFlowCollection;
  }
});

// node_modules/yaml/dist/compose/compose-collection.js
var require_compose_collection = __commonJS({
  "node_modules/yaml/dist/compose/compose-collection.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var resolveBlockMap = require_resolve_block_map();
    var resolveBlockSeq = require_resolve_block_seq();
    var resolveFlowCollection = require_resolve_flow_collection();
    function resolveCollection(CN, ctx, token, onError, tagName, tag) {
      const coll = token.type === "block-map" ? resolveBlockMap.resolveBlockMap(CN, ctx, token, onError, tag) : token.type === "block-seq" ? resolveBlockSeq.resolveBlockSeq(CN, ctx, token, onError, tag) : resolveFlowCollection.resolveFlowCollection(CN, ctx, token, onError, tag);
      const Coll = coll.constructor;
      if (tagName === "!" || tagName === Coll.tagName) {
        coll.tag = Coll.tagName;
        return coll;
      }
      if (tagName)
        coll.tag = tagName;
      return coll;
    }
    function composeCollection(CN, ctx, token, props, onError) {
      const tagToken = props.tag;
      const tagName = !tagToken ? null : ctx.directives.tagName(tagToken.source, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg));
      if (token.type === "block-seq") {
        const { anchor, newlineAfterProp: nl } = props;
        const lastProp = anchor && tagToken ? anchor.offset > tagToken.offset ? anchor : tagToken : anchor ?? tagToken;
        if (lastProp && (!nl || nl.offset < lastProp.offset)) {
          const message = "Missing newline after block sequence props";
          onError(lastProp, "MISSING_CHAR", message);
        }
      }
      const expType = token.type === "block-map" ? "map" : token.type === "block-seq" ? "seq" : token.start.source === "{" ? "map" : "seq";
      if (!tagToken || !tagName || tagName === "!" || tagName === YAMLMap.YAMLMap.tagName && expType === "map" || tagName === YAMLSeq.YAMLSeq.tagName && expType === "seq") {
        return resolveCollection(CN, ctx, token, onError, tagName);
      }
      let tag = ctx.schema.tags.find((t) => t.tag === tagName && t.collection === expType);
      if (!tag) {
        const kt = ctx.schema.knownTags[tagName];
        if (kt?.collection === expType) {
          ctx.schema.tags.push(Object.assign({}, kt, { default: false }));
          tag = kt;
        } else {
          if (kt) {
            onError(tagToken, "BAD_COLLECTION_TYPE", `${kt.tag} used for ${expType} collection, but expects ${kt.collection ?? "scalar"}`, true);
          } else {
            onError(tagToken, "TAG_RESOLVE_FAILED", `Unresolved tag: ${tagName}`, true);
          }
          return resolveCollection(CN, ctx, token, onError, tagName);
        }
      }
      const coll = resolveCollection(CN, ctx, token, onError, tagName, tag);
      const res = tag.resolve?.(coll, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg), ctx.options) ?? coll;
      const node = identity.isNode(res) ? res : new Scalar.Scalar(res);
      node.range = coll.range;
      node.tag = tagName;
      if (tag?.format)
        node.format = tag.format;
      return node;
    }
    exports.composeCollection = composeCollection;
  }
});

// node_modules/yaml/dist/compose/resolve-block-scalar.js
var require_resolve_block_scalar = __commonJS({
  "node_modules/yaml/dist/compose/resolve-block-scalar.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    function resolveBlockScalar(ctx, scalar2, onError) {
      const start = scalar2.offset;
      const header = parseBlockScalarHeader(scalar2, ctx.options.strict, onError);
      if (!header)
        return { value: "", type: null, comment: "", range: [start, start, start] };
      const type = header.mode === ">" ? Scalar.Scalar.BLOCK_FOLDED : Scalar.Scalar.BLOCK_LITERAL;
      const lines = scalar2.source ? splitLines(scalar2.source) : [];
      let chompStart = lines.length;
      for (let i = lines.length - 1; i >= 0; --i) {
        const content = lines[i][1];
        if (content === "" || content === "\r")
          chompStart = i;
        else
          break;
      }
      if (chompStart === 0) {
        const value2 = header.chomp === "+" && lines.length > 0 ? "\n".repeat(Math.max(1, lines.length - 1)) : "";
        let end2 = start + header.length;
        if (scalar2.source)
          end2 += scalar2.source.length;
        return { value: value2, type, comment: header.comment, range: [start, end2, end2] };
      }
      let trimIndent = scalar2.indent + header.indent;
      let offset = scalar2.offset + header.length;
      let contentStart = 0;
      for (let i = 0; i < chompStart; ++i) {
        const [indent, content] = lines[i];
        if (content === "" || content === "\r") {
          if (header.indent === 0 && indent.length > trimIndent)
            trimIndent = indent.length;
        } else {
          if (indent.length < trimIndent) {
            const message = "Block scalars with more-indented leading empty lines must use an explicit indentation indicator";
            onError(offset + indent.length, "MISSING_CHAR", message);
          }
          if (header.indent === 0)
            trimIndent = indent.length;
          contentStart = i;
          if (trimIndent === 0 && !ctx.atRoot) {
            const message = "Block scalar values in collections must be indented";
            onError(offset, "BAD_INDENT", message);
          }
          break;
        }
        offset += indent.length + content.length + 1;
      }
      for (let i = lines.length - 1; i >= chompStart; --i) {
        if (lines[i][0].length > trimIndent)
          chompStart = i + 1;
      }
      let value = "";
      let sep = "";
      let prevMoreIndented = false;
      for (let i = 0; i < contentStart; ++i)
        value += lines[i][0].slice(trimIndent) + "\n";
      for (let i = contentStart; i < chompStart; ++i) {
        let [indent, content] = lines[i];
        offset += indent.length + content.length + 1;
        const crlf = content[content.length - 1] === "\r";
        if (crlf)
          content = content.slice(0, -1);
        if (content && indent.length < trimIndent) {
          const src = header.indent ? "explicit indentation indicator" : "first line";
          const message = `Block scalar lines must not be less indented than their ${src}`;
          onError(offset - content.length - (crlf ? 2 : 1), "BAD_INDENT", message);
          indent = "";
        }
        if (type === Scalar.Scalar.BLOCK_LITERAL) {
          value += sep + indent.slice(trimIndent) + content;
          sep = "\n";
        } else if (indent.length > trimIndent || content[0] === "	") {
          if (sep === " ")
            sep = "\n";
          else if (!prevMoreIndented && sep === "\n")
            sep = "\n\n";
          value += sep + indent.slice(trimIndent) + content;
          sep = "\n";
          prevMoreIndented = true;
        } else if (content === "") {
          if (sep === "\n")
            value += "\n";
          else
            sep = "\n";
        } else {
          value += sep + content;
          sep = " ";
          prevMoreIndented = false;
        }
      }
      switch (header.chomp) {
        case "-":
          break;
        case "+":
          for (let i = chompStart; i < lines.length; ++i)
            value += "\n" + lines[i][0].slice(trimIndent);
          if (value[value.length - 1] !== "\n")
            value += "\n";
          break;
        default:
          value += "\n";
      }
      const end = start + header.length + scalar2.source.length;
      return { value, type, comment: header.comment, range: [start, end, end] };
    }
    function parseBlockScalarHeader({ offset, props }, strict, onError) {
      if (props[0].type !== "block-scalar-header") {
        onError(props[0], "IMPOSSIBLE", "Block scalar header not found");
        return null;
      }
      const { source } = props[0];
      const mode = source[0];
      let indent = 0;
      let chomp = "";
      let error = -1;
      for (let i = 1; i < source.length; ++i) {
        const ch = source[i];
        if (!chomp && (ch === "-" || ch === "+"))
          chomp = ch;
        else {
          const n = Number(ch);
          if (!indent && n)
            indent = n;
          else if (error === -1)
            error = offset + i;
        }
      }
      if (error !== -1)
        onError(error, "UNEXPECTED_TOKEN", `Block scalar header includes extra characters: ${source}`);
      let hasSpace = false;
      let comment = "";
      let length = source.length;
      for (let i = 1; i < props.length; ++i) {
        const token = props[i];
        switch (token.type) {
          case "space":
            hasSpace = true;
          // fallthrough
          case "newline":
            length += token.source.length;
            break;
          case "comment":
            if (strict && !hasSpace) {
              const message = "Comments must be separated from other tokens by white space characters";
              onError(token, "MISSING_CHAR", message);
            }
            length += token.source.length;
            comment = token.source.substring(1);
            break;
          case "error":
            onError(token, "UNEXPECTED_TOKEN", token.message);
            length += token.source.length;
            break;
          /* istanbul ignore next should not happen */
          default: {
            const message = `Unexpected token in block scalar header: ${token.type}`;
            onError(token, "UNEXPECTED_TOKEN", message);
            const ts = token.source;
            if (ts && typeof ts === "string")
              length += ts.length;
          }
        }
      }
      return { mode, indent, chomp, comment, length };
    }
    function splitLines(source) {
      const split = source.split(/\n( *)/);
      const first = split[0];
      const m = first.match(/^( *)/);
      const line0 = m?.[1] ? [m[1], first.slice(m[1].length)] : ["", first];
      const lines = [line0];
      for (let i = 1; i < split.length; i += 2)
        lines.push([split[i], split[i + 1]]);
      return lines;
    }
    exports.resolveBlockScalar = resolveBlockScalar;
  }
});

// node_modules/yaml/dist/compose/resolve-flow-scalar.js
var require_resolve_flow_scalar = __commonJS({
  "node_modules/yaml/dist/compose/resolve-flow-scalar.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var resolveEnd = require_resolve_end();
    function resolveFlowScalar(scalar2, strict, onError) {
      const { offset, type, source, end } = scalar2;
      let _type;
      let value;
      const _onError = (rel, code, msg) => onError(offset + rel, code, msg);
      switch (type) {
        case "scalar":
          _type = Scalar.Scalar.PLAIN;
          value = plainValue(source, _onError);
          break;
        case "single-quoted-scalar":
          _type = Scalar.Scalar.QUOTE_SINGLE;
          value = singleQuotedValue(source, _onError);
          break;
        case "double-quoted-scalar":
          _type = Scalar.Scalar.QUOTE_DOUBLE;
          value = doubleQuotedValue(source, _onError);
          break;
        /* istanbul ignore next should not happen */
        default:
          onError(scalar2, "UNEXPECTED_TOKEN", `Expected a flow scalar value, but found: ${type}`);
          return {
            value: "",
            type: null,
            comment: "",
            range: [offset, offset + source.length, offset + source.length]
          };
      }
      const valueEnd = offset + source.length;
      const re = resolveEnd.resolveEnd(end, valueEnd, strict, onError);
      return {
        value,
        type: _type,
        comment: re.comment,
        range: [offset, valueEnd, re.offset]
      };
    }
    function plainValue(source, onError) {
      let badChar = "";
      switch (source[0]) {
        /* istanbul ignore next should not happen */
        case "	":
          badChar = "a tab character";
          break;
        case ",":
          badChar = "flow indicator character ,";
          break;
        case "%":
          badChar = "directive indicator character %";
          break;
        case "|":
        case ">": {
          badChar = `block scalar indicator ${source[0]}`;
          break;
        }
        case "@":
        case "`": {
          badChar = `reserved character ${source[0]}`;
          break;
        }
      }
      if (badChar)
        onError(0, "BAD_SCALAR_START", `Plain value cannot start with ${badChar}`);
      return unfoldLines(source);
    }
    function singleQuotedValue(source, onError) {
      if (source[source.length - 1] !== "'" || source.length === 1)
        onError(source.length, "MISSING_CHAR", "Missing closing 'quote");
      return unfoldLines(source.slice(1, -1)).replace(/''/g, "'");
    }
    function unfoldLines(source) {
      const line = /(.*?)\r?\n/sy;
      let match = line.exec(source);
      if (!match)
        return source;
      let trimEnd, trimBoth;
      try {
        trimEnd = new RegExp("(?<![ 	])[ 	]+$");
        trimBoth = new RegExp("^[ 	]+|(?<![ 	])[ 	]+$", "g");
      } catch {
        trimEnd = /[ \t]+$/;
        trimBoth = /^[ \t]+|[ \t]+$/g;
      }
      let res = match[1].replace(trimEnd, "");
      let sep = " ";
      let pos = line.lastIndex;
      while (match = line.exec(source)) {
        const lm = match[1].replace(trimBoth, "");
        if (lm === "") {
          if (sep === "\n")
            res += sep;
          else
            sep = "\n";
        } else {
          res += sep + lm;
          sep = " ";
        }
        pos = line.lastIndex;
      }
      const last = /[ \t]*(.*)/sy;
      last.lastIndex = pos;
      match = last.exec(source);
      return res + sep + (match?.[1] ?? "");
    }
    function doubleQuotedValue(source, onError) {
      let res = "";
      for (let i = 1; i < source.length - 1; ++i) {
        const ch = source[i];
        if (ch === "\r" && source[i + 1] === "\n")
          continue;
        if (ch === "\n") {
          const { fold, offset } = foldNewline(source, i);
          res += fold;
          i = offset;
        } else if (ch === "\\") {
          let next = source[++i];
          const cc = escapeCodes[next];
          if (cc)
            res += cc;
          else if (next === "\n") {
            next = source[i + 1];
            while (next === " " || next === "	")
              next = source[++i + 1];
          } else if (next === "\r" && source[i + 1] === "\n") {
            next = source[++i + 1];
            while (next === " " || next === "	")
              next = source[++i + 1];
          } else if (next === "x" || next === "u" || next === "U") {
            const length = next === "x" ? 2 : next === "u" ? 4 : 8;
            res += parseCharCode(source, i + 1, length, onError);
            i += length;
          } else {
            const raw = source.substr(i - 1, 2);
            onError(i - 1, "BAD_DQ_ESCAPE", `Invalid escape sequence ${raw}`);
            res += raw;
          }
        } else if (ch === " " || ch === "	") {
          const wsStart = i;
          let next = source[i + 1];
          while (next === " " || next === "	")
            next = source[++i + 1];
          if (next !== "\n" && !(next === "\r" && source[i + 2] === "\n"))
            res += i > wsStart ? source.slice(wsStart, i + 1) : ch;
        } else {
          res += ch;
        }
      }
      if (source[source.length - 1] !== '"' || source.length === 1)
        onError(source.length, "MISSING_CHAR", 'Missing closing "quote');
      return res;
    }
    function foldNewline(source, offset) {
      let fold = "";
      let ch = source[offset + 1];
      while (ch === " " || ch === "	" || ch === "\n" || ch === "\r") {
        if (ch === "\r" && source[offset + 2] !== "\n")
          break;
        if (ch === "\n")
          fold += "\n";
        offset += 1;
        ch = source[offset + 1];
      }
      if (!fold)
        fold = " ";
      return { fold, offset };
    }
    var escapeCodes = {
      "0": "\0",
      // null character
      a: "\x07",
      // bell character
      b: "\b",
      // backspace
      e: "\x1B",
      // escape character
      f: "\f",
      // form feed
      n: "\n",
      // line feed
      r: "\r",
      // carriage return
      t: "	",
      // horizontal tab
      v: "\v",
      // vertical tab
      N: "\x85",
      // Unicode next line
      _: "\xA0",
      // Unicode non-breaking space
      L: "\u2028",
      // Unicode line separator
      P: "\u2029",
      // Unicode paragraph separator
      " ": " ",
      '"': '"',
      "/": "/",
      "\\": "\\",
      "	": "	"
    };
    function parseCharCode(source, offset, length, onError) {
      const cc = source.substr(offset, length);
      const ok = cc.length === length && /^[0-9a-fA-F]+$/.test(cc);
      const code = ok ? parseInt(cc, 16) : NaN;
      try {
        return String.fromCodePoint(code);
      } catch {
        const raw = source.substr(offset - 2, length + 2);
        onError(offset - 2, "BAD_DQ_ESCAPE", `Invalid escape sequence ${raw}`);
        return raw;
      }
    }
    exports.resolveFlowScalar = resolveFlowScalar;
  }
});

// node_modules/yaml/dist/compose/compose-scalar.js
var require_compose_scalar = __commonJS({
  "node_modules/yaml/dist/compose/compose-scalar.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var resolveBlockScalar = require_resolve_block_scalar();
    var resolveFlowScalar = require_resolve_flow_scalar();
    function composeScalar(ctx, token, tagToken, onError) {
      const { value, type, comment, range } = token.type === "block-scalar" ? resolveBlockScalar.resolveBlockScalar(ctx, token, onError) : resolveFlowScalar.resolveFlowScalar(token, ctx.options.strict, onError);
      const tagName = tagToken ? ctx.directives.tagName(tagToken.source, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg)) : null;
      let tag;
      if (ctx.options.stringKeys && ctx.atKey) {
        tag = ctx.schema[identity.SCALAR];
      } else if (tagName)
        tag = findScalarTagByName(ctx.schema, value, tagName, tagToken, onError);
      else if (token.type === "scalar")
        tag = findScalarTagByTest(ctx, value, token, onError);
      else
        tag = ctx.schema[identity.SCALAR];
      let scalar2;
      try {
        const res = tag.resolve(value, (msg) => onError(tagToken ?? token, "TAG_RESOLVE_FAILED", msg), ctx.options);
        scalar2 = identity.isScalar(res) ? res : new Scalar.Scalar(res);
      } catch (error) {
        const msg = error instanceof Error ? error.message : String(error);
        onError(tagToken ?? token, "TAG_RESOLVE_FAILED", msg);
        scalar2 = new Scalar.Scalar(value);
      }
      scalar2.range = range;
      scalar2.source = value;
      if (type)
        scalar2.type = type;
      if (tagName)
        scalar2.tag = tagName;
      if (tag.format)
        scalar2.format = tag.format;
      if (comment)
        scalar2.comment = comment;
      return scalar2;
    }
    function findScalarTagByName(schema, value, tagName, tagToken, onError) {
      if (tagName === "!")
        return schema[identity.SCALAR];
      const matchWithTest = [];
      for (const tag of schema.tags) {
        if (!tag.collection && tag.tag === tagName) {
          if (tag.default && tag.test)
            matchWithTest.push(tag);
          else
            return tag;
        }
      }
      for (const tag of matchWithTest)
        if (tag.test?.test(value))
          return tag;
      const kt = schema.knownTags[tagName];
      if (kt && !kt.collection) {
        schema.tags.push(Object.assign({}, kt, { default: false, test: void 0 }));
        return kt;
      }
      onError(tagToken, "TAG_RESOLVE_FAILED", `Unresolved tag: ${tagName}`, tagName !== "tag:yaml.org,2002:str");
      return schema[identity.SCALAR];
    }
    function findScalarTagByTest({ atKey, directives, schema }, value, token, onError) {
      const tag = schema.tags.find((tag2) => (tag2.default === true || atKey && tag2.default === "key") && tag2.test?.test(value)) || schema[identity.SCALAR];
      if (schema.compat) {
        const compat = schema.compat.find((tag2) => tag2.default && tag2.test?.test(value)) ?? schema[identity.SCALAR];
        if (tag.tag !== compat.tag) {
          const ts = directives.tagString(tag.tag);
          const cs = directives.tagString(compat.tag);
          const msg = `Value may be parsed as either ${ts} or ${cs}`;
          onError(token, "TAG_RESOLVE_FAILED", msg, true);
        }
      }
      return tag;
    }
    exports.composeScalar = composeScalar;
  }
});

// node_modules/yaml/dist/compose/util-empty-scalar-position.js
var require_util_empty_scalar_position = __commonJS({
  "node_modules/yaml/dist/compose/util-empty-scalar-position.js"(exports) {
    "use strict";
    function emptyScalarPosition(offset, before, pos) {
      if (before) {
        pos ?? (pos = before.length);
        for (let i = pos - 1; i >= 0; --i) {
          let st = before[i];
          switch (st.type) {
            case "space":
            case "comment":
            case "newline":
              offset -= st.source.length;
              continue;
          }
          st = before[++i];
          while (st?.type === "space") {
            offset += st.source.length;
            st = before[++i];
          }
          break;
        }
      }
      return offset;
    }
    exports.emptyScalarPosition = emptyScalarPosition;
  }
});

// node_modules/yaml/dist/compose/compose-node.js
var require_compose_node = __commonJS({
  "node_modules/yaml/dist/compose/compose-node.js"(exports) {
    "use strict";
    var Alias = require_Alias();
    var identity = require_identity();
    var composeCollection = require_compose_collection();
    var composeScalar = require_compose_scalar();
    var resolveEnd = require_resolve_end();
    var utilEmptyScalarPosition = require_util_empty_scalar_position();
    var CN = { composeNode, composeEmptyNode };
    function composeNode(ctx, token, props, onError) {
      const atKey = ctx.atKey;
      const { spaceBefore, comment, anchor, tag } = props;
      let node;
      let isSrcToken = true;
      switch (token.type) {
        case "alias":
          node = composeAlias(ctx, token, onError);
          if (anchor || tag)
            onError(token, "ALIAS_PROPS", "An alias node must not specify any properties");
          break;
        case "scalar":
        case "single-quoted-scalar":
        case "double-quoted-scalar":
        case "block-scalar":
          node = composeScalar.composeScalar(ctx, token, tag, onError);
          if (anchor)
            node.anchor = anchor.source.substring(1);
          break;
        case "block-map":
        case "block-seq":
        case "flow-collection":
          try {
            node = composeCollection.composeCollection(CN, ctx, token, props, onError);
            if (anchor)
              node.anchor = anchor.source.substring(1);
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            onError(token, "RESOURCE_EXHAUSTION", message);
          }
          break;
        default: {
          const message = token.type === "error" ? token.message : `Unsupported token (type: ${token.type})`;
          onError(token, "UNEXPECTED_TOKEN", message);
          isSrcToken = false;
        }
      }
      node ?? (node = composeEmptyNode(ctx, token.offset, void 0, null, props, onError));
      if (anchor && node.anchor === "")
        onError(anchor, "BAD_ALIAS", "Anchor cannot be an empty string");
      if (atKey && ctx.options.stringKeys && (!identity.isScalar(node) || typeof node.value !== "string" || node.tag && node.tag !== "tag:yaml.org,2002:str")) {
        const msg = "With stringKeys, all keys must be strings";
        onError(tag ?? token, "NON_STRING_KEY", msg);
      }
      if (spaceBefore)
        node.spaceBefore = true;
      if (comment) {
        if (token.type === "scalar" && token.source === "")
          node.comment = comment;
        else
          node.commentBefore = comment;
      }
      if (ctx.options.keepSourceTokens && isSrcToken)
        node.srcToken = token;
      return node;
    }
    function composeEmptyNode(ctx, offset, before, pos, { spaceBefore, comment, anchor, tag, end }, onError) {
      const token = {
        type: "scalar",
        offset: utilEmptyScalarPosition.emptyScalarPosition(offset, before, pos),
        indent: -1,
        source: ""
      };
      const node = composeScalar.composeScalar(ctx, token, tag, onError);
      if (anchor) {
        node.anchor = anchor.source.substring(1);
        if (node.anchor === "")
          onError(anchor, "BAD_ALIAS", "Anchor cannot be an empty string");
      }
      if (spaceBefore)
        node.spaceBefore = true;
      if (comment) {
        node.comment = comment;
        node.range[2] = end;
      }
      return node;
    }
    function composeAlias({ options }, { offset, source, end }, onError) {
      const alias = new Alias.Alias(source.substring(1));
      if (alias.source === "")
        onError(offset, "BAD_ALIAS", "Alias cannot be an empty string");
      if (alias.source.endsWith(":"))
        onError(offset + source.length - 1, "BAD_ALIAS", "Alias ending in : is ambiguous", true);
      const valueEnd = offset + source.length;
      const re = resolveEnd.resolveEnd(end, valueEnd, options.strict, onError);
      alias.range = [offset, valueEnd, re.offset];
      if (re.comment)
        alias.comment = re.comment;
      return alias;
    }
    exports.composeEmptyNode = composeEmptyNode;
    exports.composeNode = composeNode;
  }
});

// node_modules/yaml/dist/compose/compose-doc.js
var require_compose_doc = __commonJS({
  "node_modules/yaml/dist/compose/compose-doc.js"(exports) {
    "use strict";
    var Document = require_Document();
    var composeNode = require_compose_node();
    var resolveEnd = require_resolve_end();
    var resolveProps = require_resolve_props();
    function composeDoc(options, directives, { offset, start, value, end }, onError) {
      const opts = Object.assign({ _directives: directives }, options);
      const doc = new Document.Document(void 0, opts);
      const ctx = {
        atKey: false,
        atRoot: true,
        directives: doc.directives,
        options: doc.options,
        schema: doc.schema
      };
      const props = resolveProps.resolveProps(start, {
        indicator: "doc-start",
        next: value ?? end?.[0],
        offset,
        onError,
        parentIndent: 0,
        startOnNewline: true
      });
      if (props.found) {
        doc.directives.docStart = true;
        if (value && (value.type === "block-map" || value.type === "block-seq") && !props.hasNewline)
          onError(props.end, "MISSING_CHAR", "Block collection cannot start on same line with directives-end marker");
      }
      doc.contents = value ? composeNode.composeNode(ctx, value, props, onError) : composeNode.composeEmptyNode(ctx, props.end, start, null, props, onError);
      const contentEnd = doc.contents.range[2];
      const re = resolveEnd.resolveEnd(end, contentEnd, false, onError);
      if (re.comment)
        doc.comment = re.comment;
      doc.range = [offset, contentEnd, re.offset];
      return doc;
    }
    exports.composeDoc = composeDoc;
  }
});

// node_modules/yaml/dist/compose/composer.js
var require_composer = __commonJS({
  "node_modules/yaml/dist/compose/composer.js"(exports) {
    "use strict";
    var node_process = __require("process");
    var directives = require_directives();
    var Document = require_Document();
    var errors = require_errors();
    var identity = require_identity();
    var composeDoc = require_compose_doc();
    var resolveEnd = require_resolve_end();
    function getErrorPos(src) {
      if (typeof src === "number")
        return [src, src + 1];
      if (Array.isArray(src))
        return src.length === 2 ? src : [src[0], src[1]];
      const { offset, source } = src;
      return [offset, offset + (typeof source === "string" ? source.length : 1)];
    }
    function parsePrelude(prelude) {
      let comment = "";
      let atComment = false;
      let afterEmptyLine = false;
      for (let i = 0; i < prelude.length; ++i) {
        const source = prelude[i];
        switch (source[0]) {
          case "#":
            comment += (comment === "" ? "" : afterEmptyLine ? "\n\n" : "\n") + (source.substring(1) || " ");
            atComment = true;
            afterEmptyLine = false;
            break;
          case "%":
            if (prelude[i + 1]?.[0] !== "#")
              i += 1;
            atComment = false;
            break;
          default:
            if (!atComment)
              afterEmptyLine = true;
            atComment = false;
        }
      }
      return { comment, afterEmptyLine };
    }
    var Composer = class {
      constructor(options = {}) {
        this.doc = null;
        this.atDirectives = false;
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
        this.onError = (source, code, message, warning) => {
          const pos = getErrorPos(source);
          if (warning)
            this.warnings.push(new errors.YAMLWarning(pos, code, message));
          else
            this.errors.push(new errors.YAMLParseError(pos, code, message));
        };
        this.directives = new directives.Directives({ version: options.version || "1.2" });
        this.options = options;
      }
      decorate(doc, afterDoc) {
        const { comment, afterEmptyLine } = parsePrelude(this.prelude);
        if (comment) {
          const dc = doc.contents;
          if (afterDoc) {
            doc.comment = doc.comment ? `${doc.comment}
${comment}` : comment;
          } else if (afterEmptyLine || doc.directives.docStart || !dc) {
            doc.commentBefore = comment;
          } else if (identity.isCollection(dc) && !dc.flow && dc.items.length > 0) {
            let it = dc.items[0];
            if (identity.isPair(it))
              it = it.key;
            const cb = it.commentBefore;
            it.commentBefore = cb ? `${comment}
${cb}` : comment;
          } else {
            const cb = dc.commentBefore;
            dc.commentBefore = cb ? `${comment}
${cb}` : comment;
          }
        }
        if (afterDoc) {
          for (let i = 0; i < this.errors.length; ++i)
            doc.errors.push(this.errors[i]);
          for (let i = 0; i < this.warnings.length; ++i)
            doc.warnings.push(this.warnings[i]);
        } else {
          doc.errors = this.errors;
          doc.warnings = this.warnings;
        }
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
      }
      /**
       * Current stream status information.
       *
       * Mostly useful at the end of input for an empty stream.
       */
      streamInfo() {
        return {
          comment: parsePrelude(this.prelude).comment,
          directives: this.directives,
          errors: this.errors,
          warnings: this.warnings
        };
      }
      /**
       * Compose tokens into documents.
       *
       * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
       * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
       */
      *compose(tokens, forceDoc = false, endOffset = -1) {
        for (const token of tokens)
          yield* this.next(token);
        yield* this.end(forceDoc, endOffset);
      }
      /** Advance the composer by one CST token. */
      *next(token) {
        if (node_process.env.LOG_STREAM)
          console.dir(token, { depth: null });
        switch (token.type) {
          case "directive":
            this.directives.add(token.source, (offset, message, warning) => {
              const pos = getErrorPos(token);
              pos[0] += offset;
              this.onError(pos, "BAD_DIRECTIVE", message, warning);
            });
            this.prelude.push(token.source);
            this.atDirectives = true;
            break;
          case "document": {
            const doc = composeDoc.composeDoc(this.options, this.directives, token, this.onError);
            if (this.atDirectives && !doc.directives.docStart)
              this.onError(token, "MISSING_CHAR", "Missing directives-end/doc-start indicator line");
            this.decorate(doc, false);
            if (this.doc)
              yield this.doc;
            this.doc = doc;
            this.atDirectives = false;
            break;
          }
          case "byte-order-mark":
          case "space":
            break;
          case "comment":
          case "newline":
            this.prelude.push(token.source);
            break;
          case "error": {
            const msg = token.source ? `${token.message}: ${JSON.stringify(token.source)}` : token.message;
            const error = new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", msg);
            if (this.atDirectives || !this.doc)
              this.errors.push(error);
            else
              this.doc.errors.push(error);
            break;
          }
          case "doc-end": {
            if (!this.doc) {
              const msg = "Unexpected doc-end without preceding document";
              this.errors.push(new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", msg));
              break;
            }
            this.doc.directives.docEnd = true;
            const end = resolveEnd.resolveEnd(token.end, token.offset + token.source.length, this.doc.options.strict, this.onError);
            this.decorate(this.doc, true);
            if (end.comment) {
              const dc = this.doc.comment;
              this.doc.comment = dc ? `${dc}
${end.comment}` : end.comment;
            }
            this.doc.range[2] = end.offset;
            break;
          }
          default:
            this.errors.push(new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", `Unsupported token ${token.type}`));
        }
      }
      /**
       * Call at end of input to yield any remaining document.
       *
       * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
       * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
       */
      *end(forceDoc = false, endOffset = -1) {
        if (this.doc) {
          this.decorate(this.doc, true);
          yield this.doc;
          this.doc = null;
        } else if (forceDoc) {
          const opts = Object.assign({ _directives: this.directives }, this.options);
          const doc = new Document.Document(void 0, opts);
          if (this.atDirectives)
            this.onError(endOffset, "MISSING_CHAR", "Missing directives-end indicator line");
          doc.range = [0, endOffset, endOffset];
          this.decorate(doc, false);
          yield doc;
        }
      }
    };
    exports.Composer = Composer;
  }
});

// node_modules/yaml/dist/parse/cst-scalar.js
var require_cst_scalar = __commonJS({
  "node_modules/yaml/dist/parse/cst-scalar.js"(exports) {
    "use strict";
    var resolveBlockScalar = require_resolve_block_scalar();
    var resolveFlowScalar = require_resolve_flow_scalar();
    var errors = require_errors();
    var stringifyString = require_stringifyString();
    function resolveAsScalar(token, strict = true, onError) {
      if (token) {
        const _onError = (pos, code, message) => {
          const offset = typeof pos === "number" ? pos : Array.isArray(pos) ? pos[0] : pos.offset;
          if (onError)
            onError(offset, code, message);
          else
            throw new errors.YAMLParseError([offset, offset + 1], code, message);
        };
        switch (token.type) {
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar":
            return resolveFlowScalar.resolveFlowScalar(token, strict, _onError);
          case "block-scalar":
            return resolveBlockScalar.resolveBlockScalar({ options: { strict } }, token, _onError);
        }
      }
      return null;
    }
    function createScalarToken(value, context) {
      const { implicitKey = false, indent, inFlow = false, offset = -1, type = "PLAIN" } = context;
      const source = stringifyString.stringifyString({ type, value }, {
        implicitKey,
        indent: indent > 0 ? " ".repeat(indent) : "",
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
      });
      const end = context.end ?? [
        { type: "newline", offset: -1, indent, source: "\n" }
      ];
      switch (source[0]) {
        case "|":
        case ">": {
          const he = source.indexOf("\n");
          const head = source.substring(0, he);
          const body = source.substring(he + 1) + "\n";
          const props = [
            { type: "block-scalar-header", offset, indent, source: head }
          ];
          if (!addEndtoBlockProps(props, end))
            props.push({ type: "newline", offset: -1, indent, source: "\n" });
          return { type: "block-scalar", offset, indent, props, source: body };
        }
        case '"':
          return { type: "double-quoted-scalar", offset, indent, source, end };
        case "'":
          return { type: "single-quoted-scalar", offset, indent, source, end };
        default:
          return { type: "scalar", offset, indent, source, end };
      }
    }
    function setScalarValue(token, value, context = {}) {
      let { afterKey = false, implicitKey = false, inFlow = false, type } = context;
      let indent = "indent" in token ? token.indent : null;
      if (afterKey && typeof indent === "number")
        indent += 2;
      if (!type)
        switch (token.type) {
          case "single-quoted-scalar":
            type = "QUOTE_SINGLE";
            break;
          case "double-quoted-scalar":
            type = "QUOTE_DOUBLE";
            break;
          case "block-scalar": {
            const header = token.props[0];
            if (header.type !== "block-scalar-header")
              throw new Error("Invalid block scalar header");
            type = header.source[0] === ">" ? "BLOCK_FOLDED" : "BLOCK_LITERAL";
            break;
          }
          default:
            type = "PLAIN";
        }
      const source = stringifyString.stringifyString({ type, value }, {
        implicitKey: implicitKey || indent === null,
        indent: indent !== null && indent > 0 ? " ".repeat(indent) : "",
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
      });
      switch (source[0]) {
        case "|":
        case ">":
          setBlockScalarValue(token, source);
          break;
        case '"':
          setFlowScalarValue(token, source, "double-quoted-scalar");
          break;
        case "'":
          setFlowScalarValue(token, source, "single-quoted-scalar");
          break;
        default:
          setFlowScalarValue(token, source, "scalar");
      }
    }
    function setBlockScalarValue(token, source) {
      const he = source.indexOf("\n");
      const head = source.substring(0, he);
      const body = source.substring(he + 1) + "\n";
      if (token.type === "block-scalar") {
        const header = token.props[0];
        if (header.type !== "block-scalar-header")
          throw new Error("Invalid block scalar header");
        header.source = head;
        token.source = body;
      } else {
        const { offset } = token;
        const indent = "indent" in token ? token.indent : -1;
        const props = [
          { type: "block-scalar-header", offset, indent, source: head }
        ];
        if (!addEndtoBlockProps(props, "end" in token ? token.end : void 0))
          props.push({ type: "newline", offset: -1, indent, source: "\n" });
        for (const key of Object.keys(token))
          if (key !== "type" && key !== "offset")
            delete token[key];
        Object.assign(token, { type: "block-scalar", indent, props, source: body });
      }
    }
    function addEndtoBlockProps(props, end) {
      if (end)
        for (const st of end)
          switch (st.type) {
            case "space":
            case "comment":
              props.push(st);
              break;
            case "newline":
              props.push(st);
              return true;
          }
      return false;
    }
    function setFlowScalarValue(token, source, type) {
      switch (token.type) {
        case "scalar":
        case "double-quoted-scalar":
        case "single-quoted-scalar":
          token.type = type;
          token.source = source;
          break;
        case "block-scalar": {
          const end = token.props.slice(1);
          let oa = source.length;
          if (token.props[0].type === "block-scalar-header")
            oa -= token.props[0].source.length;
          for (const tok of end)
            tok.offset += oa;
          delete token.props;
          Object.assign(token, { type, source, end });
          break;
        }
        case "block-map":
        case "block-seq": {
          const offset = token.offset + source.length;
          const nl = { type: "newline", offset, indent: token.indent, source: "\n" };
          delete token.items;
          Object.assign(token, { type, source, end: [nl] });
          break;
        }
        default: {
          const indent = "indent" in token ? token.indent : -1;
          const end = "end" in token && Array.isArray(token.end) ? token.end.filter((st) => st.type === "space" || st.type === "comment" || st.type === "newline") : [];
          for (const key of Object.keys(token))
            if (key !== "type" && key !== "offset")
              delete token[key];
          Object.assign(token, { type, indent, source, end });
        }
      }
    }
    exports.createScalarToken = createScalarToken;
    exports.resolveAsScalar = resolveAsScalar;
    exports.setScalarValue = setScalarValue;
  }
});

// node_modules/yaml/dist/parse/cst-stringify.js
var require_cst_stringify = __commonJS({
  "node_modules/yaml/dist/parse/cst-stringify.js"(exports) {
    "use strict";
    var stringify3 = (cst) => "type" in cst ? stringifyToken(cst) : stringifyItem(cst);
    function stringifyToken(token) {
      switch (token.type) {
        case "block-scalar": {
          let res = "";
          for (const tok of token.props)
            res += stringifyToken(tok);
          return res + token.source;
        }
        case "block-map":
        case "block-seq": {
          let res = "";
          for (const item of token.items)
            res += stringifyItem(item);
          return res;
        }
        case "flow-collection": {
          let res = token.start.source;
          for (const item of token.items)
            res += stringifyItem(item);
          for (const st of token.end)
            res += st.source;
          return res;
        }
        case "document": {
          let res = stringifyItem(token);
          if (token.end)
            for (const st of token.end)
              res += st.source;
          return res;
        }
        default: {
          let res = token.source;
          if ("end" in token && token.end)
            for (const st of token.end)
              res += st.source;
          return res;
        }
      }
    }
    function stringifyItem({ start, key, sep, value }) {
      let res = "";
      for (const st of start)
        res += st.source;
      if (key)
        res += stringifyToken(key);
      if (sep)
        for (const st of sep)
          res += st.source;
      if (value)
        res += stringifyToken(value);
      return res;
    }
    exports.stringify = stringify3;
  }
});

// node_modules/yaml/dist/parse/cst-visit.js
var require_cst_visit = __commonJS({
  "node_modules/yaml/dist/parse/cst-visit.js"(exports) {
    "use strict";
    var BREAK = /* @__PURE__ */ Symbol("break visit");
    var SKIP = /* @__PURE__ */ Symbol("skip children");
    var REMOVE = /* @__PURE__ */ Symbol("remove item");
    function visit(cst, visitor) {
      if ("type" in cst && cst.type === "document")
        cst = { start: cst.start, value: cst.value };
      _visit(Object.freeze([]), cst, visitor);
    }
    visit.BREAK = BREAK;
    visit.SKIP = SKIP;
    visit.REMOVE = REMOVE;
    visit.itemAtPath = (cst, path) => {
      let item = cst;
      for (const [field, index] of path) {
        const tok = item?.[field];
        if (tok && "items" in tok) {
          item = tok.items[index];
        } else
          return void 0;
      }
      return item;
    };
    visit.parentCollection = (cst, path) => {
      const parent = visit.itemAtPath(cst, path.slice(0, -1));
      const field = path[path.length - 1][0];
      const coll = parent?.[field];
      if (coll && "items" in coll)
        return coll;
      throw new Error("Parent collection not found");
    };
    function _visit(path, item, visitor) {
      let ctrl = visitor(item, path);
      if (typeof ctrl === "symbol")
        return ctrl;
      for (const field of ["key", "value"]) {
        const token = item[field];
        if (token && "items" in token) {
          for (let i = 0; i < token.items.length; ++i) {
            const ci = _visit(Object.freeze(path.concat([[field, i]])), token.items[i], visitor);
            if (typeof ci === "number")
              i = ci - 1;
            else if (ci === BREAK)
              return BREAK;
            else if (ci === REMOVE) {
              token.items.splice(i, 1);
              i -= 1;
            }
          }
          if (typeof ctrl === "function" && field === "key")
            ctrl = ctrl(item, path);
        }
      }
      return typeof ctrl === "function" ? ctrl(item, path) : ctrl;
    }
    exports.visit = visit;
  }
});

// node_modules/yaml/dist/parse/cst.js
var require_cst = __commonJS({
  "node_modules/yaml/dist/parse/cst.js"(exports) {
    "use strict";
    var cstScalar = require_cst_scalar();
    var cstStringify = require_cst_stringify();
    var cstVisit = require_cst_visit();
    var BOM = "\uFEFF";
    var DOCUMENT = "";
    var FLOW_END = "";
    var SCALAR = "";
    var isCollection = (token) => !!token && "items" in token;
    var isScalar2 = (token) => !!token && (token.type === "scalar" || token.type === "single-quoted-scalar" || token.type === "double-quoted-scalar" || token.type === "block-scalar");
    function prettyToken(token) {
      switch (token) {
        case BOM:
          return "<BOM>";
        case DOCUMENT:
          return "<DOC>";
        case FLOW_END:
          return "<FLOW_END>";
        case SCALAR:
          return "<SCALAR>";
        default:
          return JSON.stringify(token);
      }
    }
    function tokenType(source) {
      switch (source) {
        case BOM:
          return "byte-order-mark";
        case DOCUMENT:
          return "doc-mode";
        case FLOW_END:
          return "flow-error-end";
        case SCALAR:
          return "scalar";
        case "---":
          return "doc-start";
        case "...":
          return "doc-end";
        case "":
        case "\n":
        case "\r\n":
          return "newline";
        case "-":
          return "seq-item-ind";
        case "?":
          return "explicit-key-ind";
        case ":":
          return "map-value-ind";
        case "{":
          return "flow-map-start";
        case "}":
          return "flow-map-end";
        case "[":
          return "flow-seq-start";
        case "]":
          return "flow-seq-end";
        case ",":
          return "comma";
      }
      switch (source[0]) {
        case " ":
        case "	":
          return "space";
        case "#":
          return "comment";
        case "%":
          return "directive-line";
        case "*":
          return "alias";
        case "&":
          return "anchor";
        case "!":
          return "tag";
        case "'":
          return "single-quoted-scalar";
        case '"':
          return "double-quoted-scalar";
        case "|":
        case ">":
          return "block-scalar-header";
      }
      return null;
    }
    exports.createScalarToken = cstScalar.createScalarToken;
    exports.resolveAsScalar = cstScalar.resolveAsScalar;
    exports.setScalarValue = cstScalar.setScalarValue;
    exports.stringify = cstStringify.stringify;
    exports.visit = cstVisit.visit;
    exports.BOM = BOM;
    exports.DOCUMENT = DOCUMENT;
    exports.FLOW_END = FLOW_END;
    exports.SCALAR = SCALAR;
    exports.isCollection = isCollection;
    exports.isScalar = isScalar2;
    exports.prettyToken = prettyToken;
    exports.tokenType = tokenType;
  }
});

// node_modules/yaml/dist/parse/lexer.js
var require_lexer = __commonJS({
  "node_modules/yaml/dist/parse/lexer.js"(exports) {
    "use strict";
    var cst = require_cst();
    function isEmpty(ch) {
      switch (ch) {
        case void 0:
        case " ":
        case "\n":
        case "\r":
        case "	":
          return true;
        default:
          return false;
      }
    }
    var hexDigits = new Set("0123456789ABCDEFabcdef");
    var tagChars = new Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-#;/?:@&=+$_.!~*'()");
    var flowIndicatorChars = new Set(",[]{}");
    var invalidAnchorChars = new Set(" ,[]{}\n\r	");
    var isNotAnchorChar = (ch) => !ch || invalidAnchorChars.has(ch);
    var Lexer = class {
      constructor() {
        this.atEnd = false;
        this.blockScalarIndent = -1;
        this.blockScalarKeep = false;
        this.buffer = "";
        this.flowKey = false;
        this.flowLevel = 0;
        this.indentNext = 0;
        this.indentValue = 0;
        this.lineEndPos = null;
        this.next = null;
        this.pos = 0;
      }
      /**
       * Generate YAML tokens from the `source` string. If `incomplete`,
       * a part of the last line may be left as a buffer for the next call.
       *
       * @returns A generator of lexical tokens
       */
      *lex(source, incomplete = false) {
        if (source) {
          if (typeof source !== "string")
            throw TypeError("source is not a string");
          this.buffer = this.buffer ? this.buffer + source : source;
          this.lineEndPos = null;
        }
        this.atEnd = !incomplete;
        let next = this.next ?? "stream";
        while (next && (incomplete || this.hasChars(1)))
          next = yield* this.parseNext(next);
      }
      atLineEnd() {
        let i = this.pos;
        let ch = this.buffer[i];
        while (ch === " " || ch === "	")
          ch = this.buffer[++i];
        if (!ch || ch === "#" || ch === "\n")
          return true;
        if (ch === "\r")
          return this.buffer[i + 1] === "\n";
        return false;
      }
      charAt(n) {
        return this.buffer[this.pos + n];
      }
      continueScalar(offset) {
        let ch = this.buffer[offset];
        if (this.indentNext > 0) {
          let indent = 0;
          while (ch === " ")
            ch = this.buffer[++indent + offset];
          if (ch === "\r") {
            const next = this.buffer[indent + offset + 1];
            if (next === "\n" || !next && !this.atEnd)
              return offset + indent + 1;
          }
          return ch === "\n" || indent >= this.indentNext || !ch && !this.atEnd ? offset + indent : -1;
        }
        if (ch === "-" || ch === ".") {
          const dt = this.buffer.substr(offset, 3);
          if ((dt === "---" || dt === "...") && isEmpty(this.buffer[offset + 3]))
            return -1;
        }
        return offset;
      }
      getLine() {
        let end = this.lineEndPos;
        if (typeof end !== "number" || end !== -1 && end < this.pos) {
          end = this.buffer.indexOf("\n", this.pos);
          this.lineEndPos = end;
        }
        if (end === -1)
          return this.atEnd ? this.buffer.substring(this.pos) : null;
        if (this.buffer[end - 1] === "\r")
          end -= 1;
        return this.buffer.substring(this.pos, end);
      }
      hasChars(n) {
        return this.pos + n <= this.buffer.length;
      }
      setNext(state) {
        this.buffer = this.buffer.substring(this.pos);
        this.pos = 0;
        this.lineEndPos = null;
        this.next = state;
        return null;
      }
      peek(n) {
        return this.buffer.substr(this.pos, n);
      }
      *parseNext(next) {
        switch (next) {
          case "stream":
            return yield* this.parseStream();
          case "line-start":
            return yield* this.parseLineStart();
          case "block-start":
            return yield* this.parseBlockStart();
          case "doc":
            return yield* this.parseDocument();
          case "flow":
            return yield* this.parseFlowCollection();
          case "quoted-scalar":
            return yield* this.parseQuotedScalar();
          case "block-scalar":
            return yield* this.parseBlockScalar();
          case "plain-scalar":
            return yield* this.parsePlainScalar();
        }
      }
      *parseStream() {
        let line = this.getLine();
        if (line === null)
          return this.setNext("stream");
        if (line[0] === cst.BOM) {
          yield* this.pushCount(1);
          line = line.substring(1);
        }
        if (line[0] === "%") {
          let dirEnd = line.length;
          let cs = line.indexOf("#");
          while (cs !== -1) {
            const ch = line[cs - 1];
            if (ch === " " || ch === "	") {
              dirEnd = cs - 1;
              break;
            } else {
              cs = line.indexOf("#", cs + 1);
            }
          }
          while (true) {
            const ch = line[dirEnd - 1];
            if (ch === " " || ch === "	")
              dirEnd -= 1;
            else
              break;
          }
          const n = (yield* this.pushCount(dirEnd)) + (yield* this.pushSpaces(true));
          yield* this.pushCount(line.length - n);
          this.pushNewline();
          return "stream";
        }
        if (this.atLineEnd()) {
          const sp = yield* this.pushSpaces(true);
          yield* this.pushCount(line.length - sp);
          yield* this.pushNewline();
          return "stream";
        }
        yield cst.DOCUMENT;
        return yield* this.parseLineStart();
      }
      *parseLineStart() {
        const ch = this.charAt(0);
        if (!ch && !this.atEnd)
          return this.setNext("line-start");
        if (ch === "-" || ch === ".") {
          if (!this.atEnd && !this.hasChars(4))
            return this.setNext("line-start");
          const s = this.peek(3);
          if ((s === "---" || s === "...") && isEmpty(this.charAt(3))) {
            yield* this.pushCount(3);
            this.indentValue = 0;
            this.indentNext = 0;
            return s === "---" ? "doc" : "stream";
          }
        }
        this.indentValue = yield* this.pushSpaces(false);
        if (this.indentNext > this.indentValue && !isEmpty(this.charAt(1)))
          this.indentNext = this.indentValue;
        return yield* this.parseBlockStart();
      }
      *parseBlockStart() {
        const [ch0, ch1] = this.peek(2);
        if (!ch1 && !this.atEnd)
          return this.setNext("block-start");
        if ((ch0 === "-" || ch0 === "?" || ch0 === ":") && isEmpty(ch1)) {
          const n = (yield* this.pushCount(1)) + (yield* this.pushSpaces(true));
          this.indentNext = this.indentValue + 1;
          this.indentValue += n;
          return "block-start";
        }
        return "doc";
      }
      *parseDocument() {
        yield* this.pushSpaces(true);
        const line = this.getLine();
        if (line === null)
          return this.setNext("doc");
        let n = yield* this.pushIndicators();
        switch (line[n]) {
          case "#":
            yield* this.pushCount(line.length - n);
          // fallthrough
          case void 0:
            yield* this.pushNewline();
            return yield* this.parseLineStart();
          case "{":
          case "[":
            yield* this.pushCount(1);
            this.flowKey = false;
            this.flowLevel = 1;
            return "flow";
          case "}":
          case "]":
            yield* this.pushCount(1);
            return "doc";
          case "*":
            yield* this.pushUntil(isNotAnchorChar);
            return "doc";
          case '"':
          case "'":
            return yield* this.parseQuotedScalar();
          case "|":
          case ">":
            n += yield* this.parseBlockScalarHeader();
            n += yield* this.pushSpaces(true);
            yield* this.pushCount(line.length - n);
            yield* this.pushNewline();
            return yield* this.parseBlockScalar();
          default:
            return yield* this.parsePlainScalar();
        }
      }
      *parseFlowCollection() {
        let nl, sp;
        let indent = -1;
        do {
          nl = yield* this.pushNewline();
          if (nl > 0) {
            sp = yield* this.pushSpaces(false);
            this.indentValue = indent = sp;
          } else {
            sp = 0;
          }
          sp += yield* this.pushSpaces(true);
        } while (nl + sp > 0);
        const line = this.getLine();
        if (line === null)
          return this.setNext("flow");
        if (indent !== -1 && indent < this.indentNext && line[0] !== "#" || indent === 0 && (line.startsWith("---") || line.startsWith("...")) && isEmpty(line[3])) {
          const atFlowEndMarker = indent === this.indentNext - 1 && this.flowLevel === 1 && (line[0] === "]" || line[0] === "}");
          if (!atFlowEndMarker) {
            this.flowLevel = 0;
            yield cst.FLOW_END;
            return yield* this.parseLineStart();
          }
        }
        let n = 0;
        while (line[n] === ",") {
          n += yield* this.pushCount(1);
          n += yield* this.pushSpaces(true);
          this.flowKey = false;
        }
        n += yield* this.pushIndicators();
        switch (line[n]) {
          case void 0:
            return "flow";
          case "#":
            yield* this.pushCount(line.length - n);
            return "flow";
          case "{":
          case "[":
            yield* this.pushCount(1);
            this.flowKey = false;
            this.flowLevel += 1;
            return "flow";
          case "}":
          case "]":
            yield* this.pushCount(1);
            this.flowKey = true;
            this.flowLevel -= 1;
            return this.flowLevel ? "flow" : "doc";
          case "*":
            yield* this.pushUntil(isNotAnchorChar);
            return "flow";
          case '"':
          case "'":
            this.flowKey = true;
            return yield* this.parseQuotedScalar();
          case ":": {
            const next = this.charAt(1);
            if (this.flowKey || isEmpty(next) || next === ",") {
              this.flowKey = false;
              yield* this.pushCount(1);
              yield* this.pushSpaces(true);
              return "flow";
            }
          }
          // fallthrough
          default:
            this.flowKey = false;
            return yield* this.parsePlainScalar();
        }
      }
      *parseQuotedScalar() {
        const quote = this.charAt(0);
        let end = this.buffer.indexOf(quote, this.pos + 1);
        if (quote === "'") {
          while (end !== -1 && this.buffer[end + 1] === "'")
            end = this.buffer.indexOf("'", end + 2);
        } else {
          while (end !== -1) {
            let n = 0;
            while (this.buffer[end - 1 - n] === "\\")
              n += 1;
            if (n % 2 === 0)
              break;
            end = this.buffer.indexOf('"', end + 1);
          }
        }
        const qb = this.buffer.substring(0, end);
        let nl = qb.indexOf("\n", this.pos);
        if (nl !== -1) {
          while (nl !== -1) {
            const cs = this.continueScalar(nl + 1);
            if (cs === -1)
              break;
            nl = qb.indexOf("\n", cs);
          }
          if (nl !== -1) {
            end = nl - (qb[nl - 1] === "\r" ? 2 : 1);
          }
        }
        if (end === -1) {
          if (!this.atEnd)
            return this.setNext("quoted-scalar");
          end = this.buffer.length;
        }
        yield* this.pushToIndex(end + 1, false);
        return this.flowLevel ? "flow" : "doc";
      }
      *parseBlockScalarHeader() {
        this.blockScalarIndent = -1;
        this.blockScalarKeep = false;
        let i = this.pos;
        while (true) {
          const ch = this.buffer[++i];
          if (ch === "+")
            this.blockScalarKeep = true;
          else if (ch > "0" && ch <= "9")
            this.blockScalarIndent = Number(ch) - 1;
          else if (ch !== "-")
            break;
        }
        return yield* this.pushUntil((ch) => isEmpty(ch) || ch === "#");
      }
      *parseBlockScalar() {
        let nl = this.pos - 1;
        let indent = 0;
        let ch;
        loop: for (let i2 = this.pos; ch = this.buffer[i2]; ++i2) {
          switch (ch) {
            case " ":
              indent += 1;
              break;
            case "\n":
              nl = i2;
              indent = 0;
              break;
            case "\r": {
              const next = this.buffer[i2 + 1];
              if (!next && !this.atEnd)
                return this.setNext("block-scalar");
              if (next === "\n")
                break;
            }
            // fallthrough
            default:
              break loop;
          }
        }
        if (!ch && !this.atEnd)
          return this.setNext("block-scalar");
        if (indent >= this.indentNext) {
          if (this.blockScalarIndent === -1)
            this.indentNext = indent;
          else {
            this.indentNext = this.blockScalarIndent + (this.indentNext === 0 ? 1 : this.indentNext);
          }
          do {
            const cs = this.continueScalar(nl + 1);
            if (cs === -1)
              break;
            nl = this.buffer.indexOf("\n", cs);
          } while (nl !== -1);
          if (nl === -1) {
            if (!this.atEnd)
              return this.setNext("block-scalar");
            nl = this.buffer.length;
          }
        }
        let i = nl + 1;
        ch = this.buffer[i];
        while (ch === " ")
          ch = this.buffer[++i];
        if (ch === "	") {
          while (ch === "	" || ch === " " || ch === "\r" || ch === "\n")
            ch = this.buffer[++i];
          nl = i - 1;
        } else if (!this.blockScalarKeep) {
          do {
            let i2 = nl - 1;
            let ch2 = this.buffer[i2];
            if (ch2 === "\r")
              ch2 = this.buffer[--i2];
            const lastChar = i2;
            while (ch2 === " ")
              ch2 = this.buffer[--i2];
            if (ch2 === "\n" && i2 >= this.pos && i2 + 1 + indent > lastChar)
              nl = i2;
            else
              break;
          } while (true);
        }
        yield cst.SCALAR;
        yield* this.pushToIndex(nl + 1, true);
        return yield* this.parseLineStart();
      }
      *parsePlainScalar() {
        const inFlow = this.flowLevel > 0;
        let end = this.pos - 1;
        let i = this.pos - 1;
        let ch;
        while (ch = this.buffer[++i]) {
          if (ch === ":") {
            const next = this.buffer[i + 1];
            if (isEmpty(next) || inFlow && flowIndicatorChars.has(next))
              break;
            end = i;
          } else if (isEmpty(ch)) {
            let next = this.buffer[i + 1];
            if (ch === "\r") {
              if (next === "\n") {
                i += 1;
                ch = "\n";
                next = this.buffer[i + 1];
              } else
                end = i;
            }
            if (next === "#" || inFlow && flowIndicatorChars.has(next))
              break;
            if (ch === "\n") {
              const cs = this.continueScalar(i + 1);
              if (cs === -1)
                break;
              i = Math.max(i, cs - 2);
            }
          } else {
            if (inFlow && flowIndicatorChars.has(ch))
              break;
            end = i;
          }
        }
        if (!ch && !this.atEnd)
          return this.setNext("plain-scalar");
        yield cst.SCALAR;
        yield* this.pushToIndex(end + 1, true);
        return inFlow ? "flow" : "doc";
      }
      *pushCount(n) {
        if (n > 0) {
          yield this.buffer.substr(this.pos, n);
          this.pos += n;
          return n;
        }
        return 0;
      }
      *pushToIndex(i, allowEmpty) {
        const s = this.buffer.slice(this.pos, i);
        if (s) {
          yield s;
          this.pos += s.length;
          return s.length;
        } else if (allowEmpty)
          yield "";
        return 0;
      }
      *pushIndicators() {
        let n = 0;
        loop: while (true) {
          switch (this.charAt(0)) {
            case "!":
              n += yield* this.pushTag();
              n += yield* this.pushSpaces(true);
              continue loop;
            case "&":
              n += yield* this.pushUntil(isNotAnchorChar);
              n += yield* this.pushSpaces(true);
              continue loop;
            case "-":
            // this is an error
            case "?":
            // this is an error outside flow collections
            case ":": {
              const inFlow = this.flowLevel > 0;
              const ch1 = this.charAt(1);
              if (isEmpty(ch1) || inFlow && flowIndicatorChars.has(ch1)) {
                if (!inFlow)
                  this.indentNext = this.indentValue + 1;
                else if (this.flowKey)
                  this.flowKey = false;
                n += yield* this.pushCount(1);
                n += yield* this.pushSpaces(true);
                continue loop;
              }
            }
          }
          break loop;
        }
        return n;
      }
      *pushTag() {
        if (this.charAt(1) === "<") {
          let i = this.pos + 2;
          let ch = this.buffer[i];
          while (!isEmpty(ch) && ch !== ">")
            ch = this.buffer[++i];
          return yield* this.pushToIndex(ch === ">" ? i + 1 : i, false);
        } else {
          let i = this.pos + 1;
          let ch = this.buffer[i];
          while (ch) {
            if (tagChars.has(ch))
              ch = this.buffer[++i];
            else if (ch === "%" && hexDigits.has(this.buffer[i + 1]) && hexDigits.has(this.buffer[i + 2])) {
              ch = this.buffer[i += 3];
            } else
              break;
          }
          return yield* this.pushToIndex(i, false);
        }
      }
      *pushNewline() {
        const ch = this.buffer[this.pos];
        if (ch === "\n")
          return yield* this.pushCount(1);
        else if (ch === "\r" && this.charAt(1) === "\n")
          return yield* this.pushCount(2);
        else
          return 0;
      }
      *pushSpaces(allowTabs) {
        let i = this.pos - 1;
        let ch;
        do {
          ch = this.buffer[++i];
        } while (ch === " " || allowTabs && ch === "	");
        const n = i - this.pos;
        if (n > 0) {
          yield this.buffer.substr(this.pos, n);
          this.pos = i;
        }
        return n;
      }
      *pushUntil(test) {
        let i = this.pos;
        let ch = this.buffer[i];
        while (!test(ch))
          ch = this.buffer[++i];
        return yield* this.pushToIndex(i, false);
      }
    };
    exports.Lexer = Lexer;
  }
});

// node_modules/yaml/dist/parse/line-counter.js
var require_line_counter = __commonJS({
  "node_modules/yaml/dist/parse/line-counter.js"(exports) {
    "use strict";
    var LineCounter2 = class {
      constructor() {
        this.lineStarts = [];
        this.addNewLine = (offset) => this.lineStarts.push(offset);
        this.linePos = (offset) => {
          let low = 0;
          let high = this.lineStarts.length;
          while (low < high) {
            const mid = low + high >> 1;
            if (this.lineStarts[mid] < offset)
              low = mid + 1;
            else
              high = mid;
          }
          if (this.lineStarts[low] === offset)
            return { line: low + 1, col: 1 };
          if (low === 0)
            return { line: 0, col: offset };
          const start = this.lineStarts[low - 1];
          return { line: low, col: offset - start + 1 };
        };
      }
    };
    exports.LineCounter = LineCounter2;
  }
});

// node_modules/yaml/dist/parse/parser.js
var require_parser = __commonJS({
  "node_modules/yaml/dist/parse/parser.js"(exports) {
    "use strict";
    var node_process = __require("process");
    var cst = require_cst();
    var lexer = require_lexer();
    function includesToken(list2, type) {
      for (let i = 0; i < list2.length; ++i)
        if (list2[i].type === type)
          return true;
      return false;
    }
    function findNonEmptyIndex(list2) {
      for (let i = 0; i < list2.length; ++i) {
        switch (list2[i].type) {
          case "space":
          case "comment":
          case "newline":
            break;
          default:
            return i;
        }
      }
      return -1;
    }
    function isFlowToken(token) {
      switch (token?.type) {
        case "alias":
        case "scalar":
        case "single-quoted-scalar":
        case "double-quoted-scalar":
        case "flow-collection":
          return true;
        default:
          return false;
      }
    }
    function getPrevProps(parent) {
      switch (parent.type) {
        case "document":
          return parent.start;
        case "block-map": {
          const it = parent.items[parent.items.length - 1];
          return it.sep ?? it.start;
        }
        case "block-seq":
          return parent.items[parent.items.length - 1].start;
        /* istanbul ignore next should not happen */
        default:
          return [];
      }
    }
    function getFirstKeyStartProps(prev) {
      if (prev.length === 0)
        return [];
      let i = prev.length;
      loop: while (--i >= 0) {
        switch (prev[i].type) {
          case "doc-start":
          case "explicit-key-ind":
          case "map-value-ind":
          case "seq-item-ind":
          case "newline":
            break loop;
        }
      }
      while (prev[++i]?.type === "space") {
      }
      return prev.splice(i, prev.length);
    }
    function arrayPushArray(target, source) {
      if (source.length < 1e5)
        Array.prototype.push.apply(target, source);
      else
        for (let i = 0; i < source.length; ++i)
          target.push(source[i]);
    }
    function fixFlowSeqItems(fc) {
      if (fc.start.type === "flow-seq-start") {
        for (const it of fc.items) {
          if (it.sep && !it.value && !includesToken(it.start, "explicit-key-ind") && !includesToken(it.sep, "map-value-ind")) {
            if (it.key)
              it.value = it.key;
            delete it.key;
            if (isFlowToken(it.value)) {
              if (it.value.end)
                arrayPushArray(it.value.end, it.sep);
              else
                it.value.end = it.sep;
            } else
              arrayPushArray(it.start, it.sep);
            delete it.sep;
          }
        }
      }
    }
    var Parser = class {
      /**
       * @param onNewLine - If defined, called separately with the start position of
       *   each new line (in `parse()`, including the start of input).
       */
      constructor(onNewLine) {
        this.atNewLine = true;
        this.atScalar = false;
        this.indent = 0;
        this.offset = 0;
        this.onKeyLine = false;
        this.stack = [];
        this.source = "";
        this.type = "";
        this.lexer = new lexer.Lexer();
        this.onNewLine = onNewLine;
      }
      /**
       * Parse `source` as a YAML stream.
       * If `incomplete`, a part of the last line may be left as a buffer for the next call.
       *
       * Errors are not thrown, but yielded as `{ type: 'error', message }` tokens.
       *
       * @returns A generator of tokens representing each directive, document, and other structure.
       */
      *parse(source, incomplete = false) {
        if (this.onNewLine && this.offset === 0)
          this.onNewLine(0);
        for (const lexeme of this.lexer.lex(source, incomplete))
          yield* this.next(lexeme);
        if (!incomplete)
          yield* this.end();
      }
      /**
       * Advance the parser by the `source` of one lexical token.
       */
      *next(source) {
        this.source = source;
        if (node_process.env.LOG_TOKENS)
          console.log("|", cst.prettyToken(source));
        if (this.atScalar) {
          this.atScalar = false;
          yield* this.step();
          this.offset += source.length;
          return;
        }
        const type = cst.tokenType(source);
        if (!type) {
          const message = `Not a YAML token: ${source}`;
          yield* this.pop({ type: "error", offset: this.offset, message, source });
          this.offset += source.length;
        } else if (type === "scalar") {
          this.atNewLine = false;
          this.atScalar = true;
          this.type = "scalar";
        } else {
          this.type = type;
          yield* this.step();
          switch (type) {
            case "newline":
              this.atNewLine = true;
              this.indent = 0;
              if (this.onNewLine)
                this.onNewLine(this.offset + source.length);
              break;
            case "space":
              if (this.atNewLine && source[0] === " ")
                this.indent += source.length;
              break;
            case "explicit-key-ind":
            case "map-value-ind":
            case "seq-item-ind":
              if (this.atNewLine)
                this.indent += source.length;
              break;
            case "doc-mode":
            case "flow-error-end":
              return;
            default:
              this.atNewLine = false;
          }
          this.offset += source.length;
        }
      }
      /** Call at end of input to push out any remaining constructions */
      *end() {
        while (this.stack.length > 0)
          yield* this.pop();
      }
      get sourceToken() {
        const st = {
          type: this.type,
          offset: this.offset,
          indent: this.indent,
          source: this.source
        };
        return st;
      }
      *step() {
        const top = this.peek(1);
        if (this.type === "doc-end" && top?.type !== "doc-end") {
          while (this.stack.length > 0)
            yield* this.pop();
          this.stack.push({
            type: "doc-end",
            offset: this.offset,
            source: this.source
          });
          return;
        }
        if (!top)
          return yield* this.stream();
        switch (top.type) {
          case "document":
            return yield* this.document(top);
          case "alias":
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar":
            return yield* this.scalar(top);
          case "block-scalar":
            return yield* this.blockScalar(top);
          case "block-map":
            return yield* this.blockMap(top);
          case "block-seq":
            return yield* this.blockSequence(top);
          case "flow-collection":
            return yield* this.flowCollection(top);
          case "doc-end":
            return yield* this.documentEnd(top);
        }
        yield* this.pop();
      }
      peek(n) {
        return this.stack[this.stack.length - n];
      }
      *pop(error) {
        const token = error ?? this.stack.pop();
        if (!token) {
          const message = "Tried to pop an empty stack";
          yield { type: "error", offset: this.offset, source: "", message };
        } else if (this.stack.length === 0) {
          yield token;
        } else {
          const top = this.peek(1);
          if (token.type === "block-scalar") {
            token.indent = "indent" in top ? top.indent : 0;
          } else if (token.type === "flow-collection" && top.type === "document") {
            token.indent = 0;
          }
          if (token.type === "flow-collection")
            fixFlowSeqItems(token);
          switch (top.type) {
            case "document":
              top.value = token;
              break;
            case "block-scalar":
              top.props.push(token);
              break;
            case "block-map": {
              const it = top.items[top.items.length - 1];
              if (it.value) {
                top.items.push({ start: [], key: token, sep: [] });
                this.onKeyLine = true;
                return;
              } else if (it.sep) {
                it.value = token;
              } else {
                Object.assign(it, { key: token, sep: [] });
                this.onKeyLine = !it.explicitKey;
                return;
              }
              break;
            }
            case "block-seq": {
              const it = top.items[top.items.length - 1];
              if (it.value)
                top.items.push({ start: [], value: token });
              else
                it.value = token;
              break;
            }
            case "flow-collection": {
              const it = top.items[top.items.length - 1];
              if (!it || it.value)
                top.items.push({ start: [], key: token, sep: [] });
              else if (it.sep)
                it.value = token;
              else
                Object.assign(it, { key: token, sep: [] });
              return;
            }
            /* istanbul ignore next should not happen */
            default:
              yield* this.pop();
              yield* this.pop(token);
          }
          if ((top.type === "document" || top.type === "block-map" || top.type === "block-seq") && (token.type === "block-map" || token.type === "block-seq")) {
            const last = token.items[token.items.length - 1];
            if (last && !last.sep && !last.value && last.start.length > 0 && findNonEmptyIndex(last.start) === -1 && (token.indent === 0 || last.start.every((st) => st.type !== "comment" || st.indent < token.indent))) {
              if (top.type === "document")
                top.end = last.start;
              else
                top.items.push({ start: last.start });
              token.items.splice(-1, 1);
            }
          }
        }
      }
      *stream() {
        switch (this.type) {
          case "directive-line":
            yield { type: "directive", offset: this.offset, source: this.source };
            return;
          case "byte-order-mark":
          case "space":
          case "comment":
          case "newline":
            yield this.sourceToken;
            return;
          case "doc-mode":
          case "doc-start": {
            const doc = {
              type: "document",
              offset: this.offset,
              start: []
            };
            if (this.type === "doc-start")
              doc.start.push(this.sourceToken);
            this.stack.push(doc);
            return;
          }
        }
        yield {
          type: "error",
          offset: this.offset,
          message: `Unexpected ${this.type} token in YAML stream`,
          source: this.source
        };
      }
      *document(doc) {
        if (doc.value)
          return yield* this.lineEnd(doc);
        switch (this.type) {
          case "doc-start": {
            if (findNonEmptyIndex(doc.start) !== -1) {
              yield* this.pop();
              yield* this.step();
            } else
              doc.start.push(this.sourceToken);
            return;
          }
          case "anchor":
          case "tag":
          case "space":
          case "comment":
          case "newline":
            doc.start.push(this.sourceToken);
            return;
        }
        const bv = this.startBlockValue(doc);
        if (bv)
          this.stack.push(bv);
        else {
          yield {
            type: "error",
            offset: this.offset,
            message: `Unexpected ${this.type} token in YAML document`,
            source: this.source
          };
        }
      }
      *scalar(scalar2) {
        if (this.type === "map-value-ind") {
          const prev = getPrevProps(this.peek(2));
          const start = getFirstKeyStartProps(prev);
          let sep;
          if (scalar2.end) {
            sep = scalar2.end;
            sep.push(this.sourceToken);
            delete scalar2.end;
          } else
            sep = [this.sourceToken];
          const map = {
            type: "block-map",
            offset: scalar2.offset,
            indent: scalar2.indent,
            items: [{ start, key: scalar2, sep }]
          };
          this.onKeyLine = true;
          this.stack[this.stack.length - 1] = map;
        } else
          yield* this.lineEnd(scalar2);
      }
      *blockScalar(scalar2) {
        switch (this.type) {
          case "space":
          case "comment":
          case "newline":
            scalar2.props.push(this.sourceToken);
            return;
          case "scalar":
            scalar2.source = this.source;
            this.atNewLine = true;
            this.indent = 0;
            if (this.onNewLine) {
              let nl = this.source.indexOf("\n") + 1;
              while (nl !== 0) {
                this.onNewLine(this.offset + nl);
                nl = this.source.indexOf("\n", nl) + 1;
              }
            }
            yield* this.pop();
            break;
          /* istanbul ignore next should not happen */
          default:
            yield* this.pop();
            yield* this.step();
        }
      }
      *blockMap(map) {
        const it = map.items[map.items.length - 1];
        switch (this.type) {
          case "newline":
            this.onKeyLine = false;
            if (it.value) {
              const end = "end" in it.value ? it.value.end : void 0;
              const last = Array.isArray(end) ? end[end.length - 1] : void 0;
              if (last?.type === "comment")
                end?.push(this.sourceToken);
              else
                map.items.push({ start: [this.sourceToken] });
            } else if (it.sep) {
              it.sep.push(this.sourceToken);
            } else {
              it.start.push(this.sourceToken);
            }
            return;
          case "space":
          case "comment":
            if (it.value) {
              map.items.push({ start: [this.sourceToken] });
            } else if (it.sep) {
              it.sep.push(this.sourceToken);
            } else {
              if (this.atIndentedComment(it.start, map.indent)) {
                const prev = map.items[map.items.length - 2];
                const end = prev?.value?.end;
                if (Array.isArray(end)) {
                  arrayPushArray(end, it.start);
                  end.push(this.sourceToken);
                  map.items.pop();
                  return;
                }
              }
              it.start.push(this.sourceToken);
            }
            return;
        }
        if (this.indent >= map.indent) {
          const atMapIndent = !this.onKeyLine && this.indent === map.indent;
          const atNextItem = atMapIndent && (it.sep || it.explicitKey) && this.type !== "seq-item-ind";
          let start = [];
          if (atNextItem && it.sep && !it.value) {
            const nl = [];
            for (let i = 0; i < it.sep.length; ++i) {
              const st = it.sep[i];
              switch (st.type) {
                case "newline":
                  nl.push(i);
                  break;
                case "space":
                  break;
                case "comment":
                  if (st.indent > map.indent)
                    nl.length = 0;
                  break;
                default:
                  nl.length = 0;
              }
            }
            if (nl.length >= 2)
              start = it.sep.splice(nl[1]);
          }
          switch (this.type) {
            case "anchor":
            case "tag":
              if (atNextItem || it.value) {
                start.push(this.sourceToken);
                map.items.push({ start });
                this.onKeyLine = true;
              } else if (it.sep) {
                it.sep.push(this.sourceToken);
              } else {
                it.start.push(this.sourceToken);
              }
              return;
            case "explicit-key-ind":
              if (!it.sep && !it.explicitKey) {
                it.start.push(this.sourceToken);
                it.explicitKey = true;
              } else if (atNextItem || it.value) {
                start.push(this.sourceToken);
                map.items.push({ start, explicitKey: true });
              } else {
                this.stack.push({
                  type: "block-map",
                  offset: this.offset,
                  indent: this.indent,
                  items: [{ start: [this.sourceToken], explicitKey: true }]
                });
              }
              this.onKeyLine = true;
              return;
            case "map-value-ind":
              if (it.explicitKey) {
                if (!it.sep) {
                  if (includesToken(it.start, "newline")) {
                    Object.assign(it, { key: null, sep: [this.sourceToken] });
                  } else {
                    const start2 = getFirstKeyStartProps(it.start);
                    this.stack.push({
                      type: "block-map",
                      offset: this.offset,
                      indent: this.indent,
                      items: [{ start: start2, key: null, sep: [this.sourceToken] }]
                    });
                  }
                } else if (it.value) {
                  map.items.push({ start: [], key: null, sep: [this.sourceToken] });
                } else if (includesToken(it.sep, "map-value-ind")) {
                  this.stack.push({
                    type: "block-map",
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start, key: null, sep: [this.sourceToken] }]
                  });
                } else if (isFlowToken(it.key) && !includesToken(it.sep, "newline")) {
                  const start2 = getFirstKeyStartProps(it.start);
                  const key = it.key;
                  const sep = it.sep;
                  sep.push(this.sourceToken);
                  delete it.key;
                  delete it.sep;
                  this.stack.push({
                    type: "block-map",
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start: start2, key, sep }]
                  });
                } else if (start.length > 0) {
                  it.sep = it.sep.concat(start, this.sourceToken);
                } else {
                  it.sep.push(this.sourceToken);
                }
              } else {
                if (!it.sep) {
                  Object.assign(it, { key: null, sep: [this.sourceToken] });
                } else if (it.value || atNextItem) {
                  map.items.push({ start, key: null, sep: [this.sourceToken] });
                } else if (includesToken(it.sep, "map-value-ind")) {
                  this.stack.push({
                    type: "block-map",
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start: [], key: null, sep: [this.sourceToken] }]
                  });
                } else {
                  it.sep.push(this.sourceToken);
                }
              }
              this.onKeyLine = true;
              return;
            case "alias":
            case "scalar":
            case "single-quoted-scalar":
            case "double-quoted-scalar": {
              const fs = this.flowScalar(this.type);
              if (atNextItem || it.value) {
                map.items.push({ start, key: fs, sep: [] });
                this.onKeyLine = true;
              } else if (it.sep) {
                this.stack.push(fs);
              } else {
                Object.assign(it, { key: fs, sep: [] });
                this.onKeyLine = true;
              }
              return;
            }
            default: {
              const bv = this.startBlockValue(map);
              if (bv) {
                if (bv.type === "block-seq") {
                  if (!it.explicitKey && it.sep && !includesToken(it.sep, "newline")) {
                    yield* this.pop({
                      type: "error",
                      offset: this.offset,
                      message: "Unexpected block-seq-ind on same line with key",
                      source: this.source
                    });
                    return;
                  }
                } else if (atMapIndent) {
                  map.items.push({ start });
                }
                this.stack.push(bv);
                return;
              }
            }
          }
        }
        yield* this.pop();
        yield* this.step();
      }
      *blockSequence(seq) {
        const it = seq.items[seq.items.length - 1];
        switch (this.type) {
          case "newline":
            if (it.value) {
              const end = "end" in it.value ? it.value.end : void 0;
              const last = Array.isArray(end) ? end[end.length - 1] : void 0;
              if (last?.type === "comment")
                end?.push(this.sourceToken);
              else
                seq.items.push({ start: [this.sourceToken] });
            } else
              it.start.push(this.sourceToken);
            return;
          case "space":
          case "comment":
            if (it.value)
              seq.items.push({ start: [this.sourceToken] });
            else {
              if (this.atIndentedComment(it.start, seq.indent)) {
                const prev = seq.items[seq.items.length - 2];
                const end = prev?.value?.end;
                if (Array.isArray(end)) {
                  arrayPushArray(end, it.start);
                  end.push(this.sourceToken);
                  seq.items.pop();
                  return;
                }
              }
              it.start.push(this.sourceToken);
            }
            return;
          case "anchor":
          case "tag":
            if (it.value || this.indent <= seq.indent)
              break;
            it.start.push(this.sourceToken);
            return;
          case "seq-item-ind":
            if (this.indent !== seq.indent)
              break;
            if (it.value || includesToken(it.start, "seq-item-ind"))
              seq.items.push({ start: [this.sourceToken] });
            else
              it.start.push(this.sourceToken);
            return;
        }
        if (this.indent > seq.indent) {
          const bv = this.startBlockValue(seq);
          if (bv) {
            this.stack.push(bv);
            return;
          }
        }
        yield* this.pop();
        yield* this.step();
      }
      *flowCollection(fc) {
        const it = fc.items[fc.items.length - 1];
        if (this.type === "flow-error-end") {
          let top;
          do {
            yield* this.pop();
            top = this.peek(1);
          } while (top?.type === "flow-collection");
        } else if (fc.end.length === 0) {
          switch (this.type) {
            case "comma":
            case "explicit-key-ind":
              if (!it || it.sep)
                fc.items.push({ start: [this.sourceToken] });
              else
                it.start.push(this.sourceToken);
              return;
            case "map-value-ind":
              if (!it || it.value)
                fc.items.push({ start: [], key: null, sep: [this.sourceToken] });
              else if (it.sep)
                it.sep.push(this.sourceToken);
              else
                Object.assign(it, { key: null, sep: [this.sourceToken] });
              return;
            case "space":
            case "comment":
            case "newline":
            case "anchor":
            case "tag":
              if (!it || it.value)
                fc.items.push({ start: [this.sourceToken] });
              else if (it.sep)
                it.sep.push(this.sourceToken);
              else
                it.start.push(this.sourceToken);
              return;
            case "alias":
            case "scalar":
            case "single-quoted-scalar":
            case "double-quoted-scalar": {
              const fs = this.flowScalar(this.type);
              if (!it || it.value)
                fc.items.push({ start: [], key: fs, sep: [] });
              else if (it.sep)
                this.stack.push(fs);
              else
                Object.assign(it, { key: fs, sep: [] });
              return;
            }
            case "flow-map-end":
            case "flow-seq-end":
              fc.end.push(this.sourceToken);
              return;
          }
          const bv = this.startBlockValue(fc);
          if (bv)
            this.stack.push(bv);
          else {
            yield* this.pop();
            yield* this.step();
          }
        } else {
          const parent = this.peek(2);
          if (parent.type === "block-map" && (this.type === "map-value-ind" && parent.indent === fc.indent || this.type === "newline" && !parent.items[parent.items.length - 1].sep)) {
            yield* this.pop();
            yield* this.step();
          } else if (this.type === "map-value-ind" && parent.type !== "flow-collection") {
            const prev = getPrevProps(parent);
            const start = getFirstKeyStartProps(prev);
            fixFlowSeqItems(fc);
            const sep = fc.end.splice(1, fc.end.length);
            sep.push(this.sourceToken);
            const map = {
              type: "block-map",
              offset: fc.offset,
              indent: fc.indent,
              items: [{ start, key: fc, sep }]
            };
            this.onKeyLine = true;
            this.stack[this.stack.length - 1] = map;
          } else {
            yield* this.lineEnd(fc);
          }
        }
      }
      flowScalar(type) {
        if (this.onNewLine) {
          let nl = this.source.indexOf("\n") + 1;
          while (nl !== 0) {
            this.onNewLine(this.offset + nl);
            nl = this.source.indexOf("\n", nl) + 1;
          }
        }
        return {
          type,
          offset: this.offset,
          indent: this.indent,
          source: this.source
        };
      }
      startBlockValue(parent) {
        switch (this.type) {
          case "alias":
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar":
            return this.flowScalar(this.type);
          case "block-scalar-header":
            return {
              type: "block-scalar",
              offset: this.offset,
              indent: this.indent,
              props: [this.sourceToken],
              source: ""
            };
          case "flow-map-start":
          case "flow-seq-start":
            return {
              type: "flow-collection",
              offset: this.offset,
              indent: this.indent,
              start: this.sourceToken,
              items: [],
              end: []
            };
          case "seq-item-ind":
            return {
              type: "block-seq",
              offset: this.offset,
              indent: this.indent,
              items: [{ start: [this.sourceToken] }]
            };
          case "explicit-key-ind": {
            this.onKeyLine = true;
            const prev = getPrevProps(parent);
            const start = getFirstKeyStartProps(prev);
            start.push(this.sourceToken);
            return {
              type: "block-map",
              offset: this.offset,
              indent: this.indent,
              items: [{ start, explicitKey: true }]
            };
          }
          case "map-value-ind": {
            this.onKeyLine = true;
            const prev = getPrevProps(parent);
            const start = getFirstKeyStartProps(prev);
            return {
              type: "block-map",
              offset: this.offset,
              indent: this.indent,
              items: [{ start, key: null, sep: [this.sourceToken] }]
            };
          }
        }
        return null;
      }
      atIndentedComment(start, indent) {
        if (this.type !== "comment")
          return false;
        if (this.indent <= indent)
          return false;
        return start.every((st) => st.type === "newline" || st.type === "space");
      }
      *documentEnd(docEnd) {
        if (this.type !== "doc-mode") {
          if (docEnd.end)
            docEnd.end.push(this.sourceToken);
          else
            docEnd.end = [this.sourceToken];
          if (this.type === "newline")
            yield* this.pop();
        }
      }
      *lineEnd(token) {
        switch (this.type) {
          case "comma":
          case "doc-start":
          case "doc-end":
          case "flow-seq-end":
          case "flow-map-end":
          case "map-value-ind":
            yield* this.pop();
            yield* this.step();
            break;
          case "newline":
            this.onKeyLine = false;
          // fallthrough
          case "space":
          case "comment":
          default:
            if (token.end)
              token.end.push(this.sourceToken);
            else
              token.end = [this.sourceToken];
            if (this.type === "newline")
              yield* this.pop();
        }
      }
    };
    exports.Parser = Parser;
  }
});

// node_modules/yaml/dist/public-api.js
var require_public_api = __commonJS({
  "node_modules/yaml/dist/public-api.js"(exports) {
    "use strict";
    var composer = require_composer();
    var Document = require_Document();
    var errors = require_errors();
    var log = require_log();
    var identity = require_identity();
    var lineCounter = require_line_counter();
    var parser = require_parser();
    function parseOptions(options) {
      const prettyErrors = options.prettyErrors !== false;
      const lineCounter$1 = options.lineCounter || prettyErrors && new lineCounter.LineCounter() || null;
      return { lineCounter: lineCounter$1, prettyErrors };
    }
    function parseAllDocuments(source, options = {}) {
      const { lineCounter: lineCounter2, prettyErrors } = parseOptions(options);
      const parser$1 = new parser.Parser(lineCounter2?.addNewLine);
      const composer$1 = new composer.Composer(options);
      const docs = Array.from(composer$1.compose(parser$1.parse(source)));
      if (prettyErrors && lineCounter2)
        for (const doc of docs) {
          doc.errors.forEach(errors.prettifyError(source, lineCounter2));
          doc.warnings.forEach(errors.prettifyError(source, lineCounter2));
        }
      if (docs.length > 0)
        return docs;
      return Object.assign([], { empty: true }, composer$1.streamInfo());
    }
    function parseDocument2(source, options = {}) {
      const { lineCounter: lineCounter2, prettyErrors } = parseOptions(options);
      const parser$1 = new parser.Parser(lineCounter2?.addNewLine);
      const composer$1 = new composer.Composer(options);
      let doc = null;
      for (const _doc of composer$1.compose(parser$1.parse(source), true, source.length)) {
        if (!doc)
          doc = _doc;
        else if (doc.options.logLevel !== "silent") {
          doc.errors.push(new errors.YAMLParseError(_doc.range.slice(0, 2), "MULTIPLE_DOCS", "Source contains multiple documents; please use YAML.parseAllDocuments()"));
          break;
        }
      }
      if (prettyErrors && lineCounter2) {
        doc.errors.forEach(errors.prettifyError(source, lineCounter2));
        doc.warnings.forEach(errors.prettifyError(source, lineCounter2));
      }
      return doc;
    }
    function parse2(src, reviver, options) {
      let _reviver = void 0;
      if (typeof reviver === "function") {
        _reviver = reviver;
      } else if (options === void 0 && reviver && typeof reviver === "object") {
        options = reviver;
      }
      const doc = parseDocument2(src, options);
      if (!doc)
        return null;
      doc.warnings.forEach((warning) => log.warn(doc.options.logLevel, warning));
      if (doc.errors.length > 0) {
        if (doc.options.logLevel !== "silent")
          throw doc.errors[0];
        else
          doc.errors = [];
      }
      return doc.toJS(Object.assign({ reviver: _reviver }, options));
    }
    function stringify3(value, replacer, options) {
      let _replacer = null;
      if (typeof replacer === "function" || Array.isArray(replacer)) {
        _replacer = replacer;
      } else if (options === void 0 && replacer) {
        options = replacer;
      }
      if (typeof options === "string")
        options = options.length;
      if (typeof options === "number") {
        const indent = Math.round(options);
        options = indent < 1 ? void 0 : indent > 8 ? { indent: 8 } : { indent };
      }
      if (value === void 0) {
        const { keepUndefined } = options ?? replacer ?? {};
        if (!keepUndefined)
          return void 0;
      }
      if (identity.isDocument(value) && !_replacer)
        return value.toString(options);
      return new Document.Document(value, _replacer, options).toString(options);
    }
    exports.parse = parse2;
    exports.parseAllDocuments = parseAllDocuments;
    exports.parseDocument = parseDocument2;
    exports.stringify = stringify3;
  }
});

// node_modules/yaml/dist/index.js
var require_dist = __commonJS({
  "node_modules/yaml/dist/index.js"(exports) {
    "use strict";
    var composer = require_composer();
    var Document = require_Document();
    var Schema = require_Schema();
    var errors = require_errors();
    var Alias = require_Alias();
    var identity = require_identity();
    var Pair = require_Pair();
    var Scalar = require_Scalar();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var cst = require_cst();
    var lexer = require_lexer();
    var lineCounter = require_line_counter();
    var parser = require_parser();
    var publicApi = require_public_api();
    var visit = require_visit();
    exports.Composer = composer.Composer;
    exports.Document = Document.Document;
    exports.Schema = Schema.Schema;
    exports.YAMLError = errors.YAMLError;
    exports.YAMLParseError = errors.YAMLParseError;
    exports.YAMLWarning = errors.YAMLWarning;
    exports.Alias = Alias.Alias;
    exports.isAlias = identity.isAlias;
    exports.isCollection = identity.isCollection;
    exports.isDocument = identity.isDocument;
    exports.isMap = identity.isMap;
    exports.isNode = identity.isNode;
    exports.isPair = identity.isPair;
    exports.isScalar = identity.isScalar;
    exports.isSeq = identity.isSeq;
    exports.Pair = Pair.Pair;
    exports.Scalar = Scalar.Scalar;
    exports.YAMLMap = YAMLMap.YAMLMap;
    exports.YAMLSeq = YAMLSeq.YAMLSeq;
    exports.CST = cst;
    exports.Lexer = lexer.Lexer;
    exports.LineCounter = lineCounter.LineCounter;
    exports.Parser = parser.Parser;
    exports.parse = publicApi.parse;
    exports.parseAllDocuments = publicApi.parseAllDocuments;
    exports.parseDocument = publicApi.parseDocument;
    exports.stringify = publicApi.stringify;
    exports.visit = visit.visit;
    exports.visitAsync = visit.visitAsync;
  }
});

// action/src/proc/files.ts
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
async function writeAtomic(file, text) {
  const tmp = `${file}.${process.pid}.${randomBytes(3).toString("hex")}.tmp`;
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(tmp, text);
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {
    });
    throw new WriteError(file, e);
  }
}

// action/src/proc/secrets.ts
var secrets = /* @__PURE__ */ new Set();
var MASK = "***";
function addSecret(value) {
  if (value && value.length >= 3) secrets.add(value);
}
function maskSecrets(text) {
  let out = text;
  for (const s of secrets) out = out.split(s).join(MASK);
  return out;
}
var maskArgs = (args) => args.map(maskSecrets);

// action/src/yaml/read.ts
var import_yaml = __toESM(require_dist(), 1);
import { readFile } from "node:fs/promises";
function keyPath(path) {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "(top level)";
}
function lineOf(doc, counter, path) {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true);
    if (node && ((0, import_yaml.isScalar)(node) || (0, import_yaml.isMap)(node) || (0, import_yaml.isSeq)(node)) && node.range) {
      return counter.linePos(node.range[0]).line;
    }
  }
  return void 0;
}
function allowedKeysAt(schema, path) {
  let node = schema;
  const unwrap = () => {
    for (let def2 = node?._zod.def; def2; def2 = node?._zod.def) {
      const inner = def2.type === "pipe" ? def2.in : ["optional", "default", "nullable", "prefault"].includes(def2.type) ? def2.innerType : void 0;
      if (!inner) return;
      node = inner;
    }
  };
  for (const key of path) {
    unwrap();
    const def2 = node?._zod.def;
    if (!def2) return [];
    node = def2.type === "object" ? def2.shape?.[String(key)] : def2.type === "array" ? def2.element : def2.type === "record" ? def2.valueType : void 0;
  }
  unwrap();
  const def = node?._zod.def;
  return def?.type === "object" && def.shape ? Object.keys(def.shape) : [];
}
function distance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        prev[j] + 1,
        row[j - 1] + 1,
        prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)
      );
    prev = row;
  }
  return prev[b.length];
}
function closest(word, names) {
  let best;
  let bestD = Number.POSITIVE_INFINITY;
  for (const n of names) {
    const dd = distance(word, n);
    if (dd < bestD) {
      best = n;
      bestD = dd;
    }
  }
  return best !== void 0 && bestD <= Math.max(1, Math.floor(word.length / 3)) && bestD > 0 ? best : void 0;
}
function at(raw, path) {
  let node = raw;
  for (const k of path.slice(0, -1)) {
    if (!node || typeof node !== "object") return { parent: void 0, present: false };
    node = node[k];
  }
  const last = path[path.length - 1];
  const present = Boolean(node && typeof node === "object" && last !== void 0 && last in node);
  return { parent: node, present };
}
function formatIssues(file, issues, locate, schema, raw) {
  const lines = issues.map((issue) => {
    let path = issue.path;
    let message = issue.message;
    const where = raw !== void 0 && path.length ? at(raw, path) : void 0;
    if (issue.code === "unrecognized_keys") {
      path = [...issue.path, issue.keys[0] ?? ""];
      const allowed = schema ? allowedKeysAt(schema, issue.path) : [];
      const named = issue.keys.map((k) => {
        const near = closest(k, allowed);
        return near ? `${k} (did you mean ${near}?)` : k;
      });
      message = `unknown key${issue.keys.length > 1 ? "s" : ""} ${named.join(", ")}${allowed.length ? ` (allowed: ${allowed.join(", ")})` : ""}`;
    } else if (where && !where.present && where.parent && typeof where.parent === "object" && (issue.code === "invalid_type" || /^Invalid input/.test(issue.message))) {
      const name = String(path[path.length - 1]);
      const written = Object.keys(where.parent);
      const typo = written.find((k) => closest(k, [name]) === name);
      message = `required, but missing${typo ? ` (is ${typo} on this line a typo of ${name}?)` : ""}`;
      const line2 = typo ? locate?.([...path.slice(0, -1), typo]) : void 0;
      if (line2) return `${file}:${line2}: ${keyPath(path)}: ${message}`;
    } else if (issue.code === "invalid_key") {
      path = [...issue.path];
      message = issue.issues.map((i) => i.message).join("; ");
    }
    const line = locate?.(path);
    return `${file}${line ? `:${line}` : ""}: ${keyPath(path)}: ${message}`;
  });
  return lines.join("\n");
}
function parseYaml(text, file) {
  const counter = new import_yaml.LineCounter();
  const doc = (0, import_yaml.parseDocument)(text, { lineCounter: counter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const more = doc.errors.length > 1 ? " (fix this first; later YAML errors may follow from it)" : "";
    throw new InputError(
      `${file}:${e.linePos?.[0]?.line ?? "?"}: invalid YAML: ${e.message.split("\n")[0]}${more}`
    );
  }
  return { raw: doc.toJS(), line: (p) => lineOf(doc, counter, p) };
}
function validateYaml(schema, yaml, file) {
  const parsed = schema.safeParse(yaml.raw);
  if (!parsed.success)
    throw new InputError(formatIssues(file, parsed.error.issues, yaml.line, schema, yaml.raw));
  return parsed.data;
}
async function readProfileText(file, flag) {
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(
      `${flag} ${file}: cannot read the profile (${e.code ?? e})`
    );
  }
}

// action/src/result/store.ts
import { randomBytes as randomBytes2 } from "node:crypto";
import { accessSync, constants, existsSync, realpathSync, statfsSync, statSync } from "node:fs";
import { mkdir as mkdir2, open, readFile as readFile2, rm as rm2, rmdir, writeFile as writeFile2 } from "node:fs/promises";
import { dirname as dirname2, join, resolve } from "node:path";

// action/src/yaml/merge.ts
var isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
function deepMerge(base, overlay) {
  if (!isObj(base) || !isObj(overlay)) return overlay === void 0 ? base : overlay;
  const out = { ...base };
  for (const [k, v] of Object.entries(overlay)) {
    if (v === null) delete out[k];
    else out[k] = deepMerge(base[k], v);
  }
  return out;
}

// action/src/result/migrate.ts
var V1_METRICS = {
  tps: { unit: "1/s", better: "higher" },
  qps: { unit: "1/s", better: "higher" },
  errors: { unit: "count", better: "lower" }
};
var v1Metric = (name) => V1_METRICS[name] ?? (/^p\d+_ms$/.test(name) ? { unit: "ms", better: "lower" } : void 0);
var V1_INTERVAL_KEYS = [
  "tps",
  "qps",
  "reads",
  "writes",
  "other",
  "errors_per_s",
  "reconnects_per_s",
  "queue_length",
  "concurrency"
];
function cellV1toV2(cell) {
  const { script, summary, intervals, metrics, metrics_source, ...rest } = cell;
  const percentile = isObj(summary) && typeof summary.percentile === "number" ? summary.percentile : null;
  const outMetrics = {};
  for (const [name, value] of Object.entries(isObj(metrics) ? metrics : {})) {
    const info = v1Metric(name);
    if (info && typeof value === "number") outMetrics[name] = { value, ...info };
  }
  const outIntervals = (Array.isArray(intervals) ? intervals : []).filter(isObj).map((iv) => {
    const values = {};
    for (const k of V1_INTERVAL_KEYS) if (typeof iv[k] === "number") values[k] = iv[k];
    if (typeof iv.lat_ms === "number" && percentile !== null) values[`p${percentile}_ms`] = iv.lat_ms;
    return { t: iv.t, warmup: iv.warmup === true, values };
  });
  return {
    ...rest,
    driver: "sysbench",
    script,
    metrics: outMetrics,
    ...metrics_source !== void 0 ? { metrics_source } : {},
    intervals: outIntervals,
    ...isObj(summary) ? { summary } : {}
  };
}
function specBodyV1toV2(body) {
  if (!isObj(body) || !Array.isArray(body.workloads)) return body;
  const rules = isObj(body.metrics) ? body.metrics : {};
  const workloads = body.workloads.filter(isObj).map((w) => {
    const { sysbench, percentile, options, ...rest } = w;
    const p = typeof percentile === "number" ? percentile : 95;
    const provided = /* @__PURE__ */ new Set(["tps", "qps", "errors", `p${p}_ms`]);
    const judge = Object.fromEntries(Object.entries(rules).filter(([m]) => provided.has(m)));
    return {
      ...rest,
      driver: "sysbench",
      script: sysbench,
      options: { ...isObj(options) ? options : {}, percentile: p },
      judge
    };
  });
  return { ...body, workloads };
}
function resultV1toV2(raw) {
  const spec = isObj(raw.spec) ? { ...raw.spec, body: specBodyV1toV2(raw.spec.body) } : raw.spec;
  const cells = Array.isArray(raw.cells) ? raw.cells.map((c) => isObj(c) ? cellV1toV2(c) : c) : raw.cells;
  return { ...raw, version: 2, spec, cells };
}
var RESULT_MIGRATIONS = { 1: resultV1toV2 };

// action/src/result/model.ts
var RESULT_FORMAT = "tiperf.result";
var RESULT_VERSION = 2;
var num = external_exports.number();
var IntervalSchema = external_exports.strictObject({
  /** Seconds since the start of the run. */
  t: num,
  /** Inside the workload's warmup window: kept, shown, never judged. */
  warmup: external_exports.boolean(),
  values: external_exports.record(external_exports.string(), num)
});
var MetricSchema = external_exports.strictObject({
  value: num,
  unit: external_exports.string(),
  better: external_exports.enum(["higher", "lower"])
});
var StatSchema = external_exports.strictObject({ mean: num, max: num });
var ResourceUseSchema = external_exports.strictObject({
  /** The program as the kernel names it (mariadbd, postgres, tidb-server, sysbench), or "machine". */
  component: external_exports.string(),
  role: external_exports.enum(["server", "load", "machine"]),
  /** Where it ran: "local" (this machine) or the host it was sampled on. */
  host: external_exports.string(),
  /** The most processes of it seen at once (PostgreSQL: one per backend). */
  processes: external_exports.number().int().nonnegative(),
  /** CPUs it may use: its affinity, capped by its cgroup's quota (the machine: all of them). */
  cpus: num,
  /** User + system CPU time as a percentage of `cpus` (100 = all it may use): window mean and busiest second. */
  cpu_pct: StatSchema,
  /** Resident memory, MiB. */
  rss_mib: StatSchema.optional(),
  /** Bytes it had read from / written to storage, MiB/s (where /proc/PID/io is readable). */
  read_mib_s: StatSchema.optional(),
  write_mib_s: StatSchema.optional(),
  /** Per second: seconds since the measured run started, CPU %, RSS MiB. */
  samples: external_exports.array(external_exports.strictObject({ t: num, cpu_pct: num, rss_mib: num.optional() }))
});
var CellCostSchema = external_exports.strictObject({
  /** Seconds between the two readings of the counters. */
  window_s: num,
  /** Operations the load tool counted in the measured window (its rate × the duration). */
  ops: num,
  /** Each counter's growth over the window (cpu_s, alloc_bytes, handler_reads, cpu_s.tikv …). */
  counters: external_exports.record(external_exports.string(), num),
  /** The idle servers' growth per second of each counter, measured after they started: taken off before dividing. */
  idle_per_s: external_exports.record(external_exports.string(), num).optional(),
  /** What one reading of the counters itself adds to each (a /metrics answer's allocations): taken off once per window. */
  reading_cost: external_exports.record(external_exports.string(), num).optional(),
  /**
   * This cell's own idle readings, where idle_per_s and reading_cost hold the run's background (the
   * mean over every measured server, compare/background.ts): the cost metrics are net of that.
   */
  own_idle_per_s: external_exports.record(external_exports.string(), num).optional(),
  own_reading_cost: external_exports.record(external_exports.string(), num).optional()
});
var CellSchema = external_exports.strictObject({
  workload: external_exports.string(),
  /** The load tool (drivers/registry.ts) and what it ran: sysbench script, go-tpc benchmark, go-ycsb workload. */
  driver: external_exports.string(),
  script: external_exports.string(),
  threads: external_exports.number().int().positive(),
  /** Which variant of the spec ran this cell ("base" for a plain run). */
  variant: external_exports.string(),
  /** 1-based repetition number when a comparison repeats cells; 0 marks a warmup round (never judged). */
  round: external_exports.number().int().nonnegative(),
  /** With compare.blocks: the block (1-based) whose server instances measured the cell. */
  block: external_exports.number().int().positive().optional(),
  status: external_exports.enum(["ok", "failed"]),
  error: external_exports.string().optional(),
  /**
   * A failed cell's fault where tiperf acts on it: `stalled`, seconds of the measured run without
   * a finished operation and nothing else wrong (the cell ran again before it failed).
   */
  failure: external_exports.enum(["stalled"]).optional(),
  /**
   * Measured runs of this cell (duet: of its round) set aside because a server stalled, each
   * with its error and its raw output (kept, renamed); the cell's numbers are a later attempt's.
   */
  stalled_attempts: external_exports.array(external_exports.strictObject({ error: external_exports.string(), raw_log: external_exports.string().optional() })).optional(),
  started_at: external_exports.string(),
  finished_at: external_exports.string(),
  /** Raw tool output, relative to the run directory. */
  raw_log: external_exports.string(),
  warmup_s: num,
  duration_s: num,
  /** The values that are judged, over the steady window (after warmup). */
  metrics: external_exports.record(external_exports.string(), MetricSchema),
  metrics_source: external_exports.enum(["summary", "intervals"]).optional(),
  intervals: external_exports.array(IntervalSchema),
  /** The tool's own summary, as its driver parsed it. */
  summary: external_exports.record(external_exports.string(), external_exports.unknown()).optional(),
  /** Per-operation breakdown: TPC-C NEW_ORDER, PAYMENT …; YCSB READ, UPDATE …: field → value. */
  operations: external_exports.record(external_exports.string(), external_exports.record(external_exports.string(), num)).optional(),
  /** Failed operations the tool counted (TPC-C `*_ERR`, YCSB `*_ERROR`), same shape. */
  errors: external_exports.record(external_exports.string(), external_exports.record(external_exports.string(), num)).optional(),
  /** CPU, memory and disk of the servers, the load tool and the machine over the measured window. */
  resources: external_exports.array(ResourceUseSchema).optional(),
  /** The servers' counters over the measured window, behind the cell's cost metrics. */
  cost: CellCostSchema.optional(),
  /**
   * compare.order duet: CPU time of processes of neither pair on the CPUs this cell's pair held
   * over the measured run, % of those CPUs' time (absent where it could not be counted whole).
   */
  outside_cpu_pct: num.optional(),
  /** compare.order duet: how often this round ran again because outside CPU use fell unevenly on the pairs. */
  reruns: external_exports.number().int().positive().optional(),
  /** compare.order duet: how often this round ran again because one pair stalled while the other ran on. */
  stall_reruns: external_exports.number().int().positive().optional(),
  /**
   * target.resources.cpu_quota: the servers' quota cgroup over the measured run (cgroup cpu.stat):
   * enforcement periods, those in which the quota throttled them, the time they waited throttled
   * and the CPU time they used. A quota that never throttled did not bind.
   */
  cpu_throttle: external_exports.strictObject({
    periods: external_exports.number().int().nonnegative(),
    throttled_periods: external_exports.number().int().nonnegative(),
    throttled_s: num,
    usage_s: num.optional()
  }).optional()
});
var HostSchema = external_exports.strictObject({
  hostname: external_exports.string(),
  cpu_model: external_exports.string(),
  cores: external_exports.number().int(),
  memory_bytes: num,
  kernel: external_exports.string(),
  os: external_exports.string(),
  arch: external_exports.string()
});
var TargetInfoSchema = external_exports.strictObject({
  variant: external_exports.string(),
  kind: external_exports.string(),
  version: external_exports.string(),
  config: external_exports.record(external_exports.string(), external_exports.union([external_exports.string(), external_exports.number(), external_exports.boolean()])),
  effective_config: external_exports.record(external_exports.string(), external_exports.string()),
  resources: external_exports.record(external_exports.string(), external_exports.union([external_exports.string(), external_exports.number()])).optional(),
  /** Built from a source tree (target.source): the commit its server was built at, and the binary. */
  build: external_exports.strictObject({ commit: external_exports.string(), subject: external_exports.string(), tree: external_exports.string(), binary: external_exports.string() }).optional(),
  /** TiDB targets: deployment, topology file, tidb_version(), /status. */
  details: external_exports.record(external_exports.string(), external_exports.unknown()).optional()
});
var ResultSchema = external_exports.strictObject({
  format: external_exports.literal(RESULT_FORMAT),
  version: external_exports.literal(RESULT_VERSION),
  run_id: external_exports.string(),
  status: external_exports.enum(["running", "complete", "failed", "interrupted"]),
  error: external_exports.string().optional(),
  started_at: external_exports.string(),
  finished_at: external_exports.string().optional(),
  spec: external_exports.strictObject({
    name: external_exports.string(),
    path: external_exports.string(),
    hash: external_exports.string(),
    body: external_exports.unknown()
  }),
  /**
   * Where the machines came from, named the same in baselines, history and comments: the cluster
   * profile's name (playground, aws-smoke), or local-<kind> for a private server on the runner.
   */
  profile: external_exports.string().optional(),
  targets: external_exports.array(TargetInfoSchema),
  host: HostSchema,
  tools: external_exports.record(external_exports.string(), external_exports.string()),
  cells: external_exports.array(CellSchema),
  /** Where the spec could not measure what it says (warned about when the run started). */
  warnings: external_exports.array(external_exports.string()).optional(),
  /**
   * Why this run measured nothing (base and head resolve to one target): a shard's part says so,
   * so that `tiperf merge` of such parts answers as one runner would.
   */
  nothing_measured: external_exports.string().optional(),
  /** The spec is new at the head: this comparison is an A/A of its design (why), and passes. */
  adoption: external_exports.strictObject({ why: external_exports.string(), spec: external_exports.string() }).optional(),
  /**
   * A share of a comparison (`compare --shard K/N`): `tiperf merge` judges the N parts as one. The
   * spec as given (before builds), so that the merge judges by it; its sha256 and the seed tie the
   * parts together.
   */
  shard: external_exports.union([
    external_exports.strictObject({
      index: external_exports.number().int().positive(),
      of: external_exports.number().int().positive(),
      seed: external_exports.number().int().nonnegative(),
      /** The comparison's order as its plan resolved it (compare.order auto → duet or interleaved). */
      order: external_exports.enum(["interleaved", "duet"]),
      /** The blocks of the comparison this part ran (numbered as in the whole). */
      blocks: external_exports.array(external_exports.number().int().positive()),
      /** A further look's wave (compare --look-of): the look it ran (absent: the design's blocks). */
      look: external_exports.number().int().min(2).optional(),
      spec_sha256: external_exports.string(),
      spec: external_exports.record(external_exports.string(), external_exports.unknown())
    }),
    /** A share of a run's matrix (`run --shard K/N`): every N-th cell, `tiperf merge` joins them. */
    external_exports.strictObject({
      index: external_exports.number().int().positive(),
      of: external_exports.number().int().positive(),
      /** The cells of the matrix this part ran ("workload threads=N"), in the matrix's order. */
      cells: external_exports.array(external_exports.string()),
      spec_sha256: external_exports.string(),
      spec: external_exports.record(external_exports.string(), external_exports.unknown())
    })
  ]).optional()
});
var CostSchema = external_exports.strictObject({
  currency: external_exports.literal("USD"),
  basis: external_exports.enum(["estimate", "measured"]),
  profile: external_exports.string(),
  per_hour: external_exports.number().positive(),
  hours: external_exports.number().nonnegative(),
  dollars: external_exports.number().nonnegative(),
  prices_as_of: external_exports.string(),
  /**
   * A comparison spread over runners, one cluster per shard: each shard's own cost; the totals
   * above are their sum (per_hour: all clusters at once; hours: the longest shard's).
   */
  shards: external_exports.array(external_exports.strictObject({ index: external_exports.number().int().positive(), hours: external_exports.number(), dollars: external_exports.number() })).optional()
});

// action/src/result/store.ts
function newRunId(specName, now = /* @__PURE__ */ new Date()) {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return `${stamp}-${specName}-${randomBytes2(2).toString("hex")}`;
}
var PSEUDO_FS = {
  40864: "proc",
  1650812274: "sysfs",
  7377: "devpts",
  2613483: "cgroup",
  1667723888: "cgroup2",
  1684170528: "debugfs",
  1953653091: "tracefs",
  1935894131: "securityfs",
  1650812272: "configfs",
  3405662737: "bpf"
};
function nearestExisting(path) {
  let p = resolve(path);
  while (!existsSync(p) && dirname2(p) !== p) p = dirname2(p);
  return p;
}
async function checkOutDir(dir, flag = "--out") {
  const existing = nearestExisting(dir);
  let real = existing;
  try {
    real = realpathSync(existing);
  } catch {
  }
  let fsName;
  try {
    fsName = PSEUDO_FS[Number(statfsSync(real).type)];
  } catch {
  }
  if (fsName || /^\/(proc|sys|dev)(\/|$)/.test(real)) {
    throw new InputError(
      `${flag} ${dir}: ${real} is on the kernel's ${fsName ?? real.split("/")[1]} filesystem, not a place for results; choose a directory on a disk`
    );
  }
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new InputError(`${flag} ${dir}: exists and is not a directory`);
  try {
    const missing = [];
    for (let p = resolve(dir); p !== existing; p = dirname2(p)) missing.unshift(p);
    if (!statSync(existing).isDirectory()) throw Object.assign(new Error(existing), { code: "ENOTDIR" });
    accessSync(existing, constants.W_OK | constants.X_OK);
    for (const p of missing)
      await mkdir2(p).catch((e) => e.code === "EEXIST" ? void 0 : Promise.reject(e));
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (e) {
    const code = e.code;
    if (code === "ENOSPC" || code === "EDQUOT") throw new WriteError(dir, e);
    throw new InputError(`${flag} ${dir}: cannot write there: ${errnoText(e)}`);
  }
}
async function checkOutFile(file, flag) {
  if (existsSync(file) && statSync(file).isDirectory())
    throw new InputError(`${flag} ${file}: is a directory; give a file name`);
  await checkOutDir(dirname2(resolve(file)), flag);
}
async function writeInPlace(file, text) {
  try {
    const fh = await open(file, "r+");
    try {
      const data = Buffer.from(text);
      await fh.write(data, 0, data.length, 0);
      await fh.truncate(data.length);
    } finally {
      await fh.close();
    }
  } catch (e) {
    throw new WriteError(file, e);
  }
}
var RESERVE_BYTES = 1 << 20;
var isNoSpace = (e) => e instanceof WriteError && ["ENOSPC", "EDQUOT"].includes(e.cause?.code ?? "");
var RunDir = class _RunDir {
  constructor(dir) {
    this.dir = dir;
  }
  dir;
  /** Forgets the run's ledger entry once its result is final (set by the pipeline). */
  forget = async () => {
  };
  static async create(outDir, runId) {
    await checkOutDir(outDir);
    const run = new _RunDir(join(outDir, runId));
    try {
      await mkdir2(join(run.dir, "raw"), { recursive: true });
    } catch (e) {
      throw new WriteError(join(run.dir, "raw"), e);
    }
    try {
      await writeFile2(run.reservePath, Buffer.alloc(RESERVE_BYTES));
    } catch (e) {
      await rm2(run.reservePath, { force: true }).catch(() => {
      });
      await rmdir(join(run.dir, "raw")).catch(() => {
      });
      await rmdir(run.dir).catch(() => {
      });
      throw new WriteError(run.reservePath, e);
    }
    return run;
  }
  get reservePath() {
    return join(this.dir, ".reserve");
  }
  /** Gives the reserved space back (at the end of a run, or when a write found the disk full). */
  async release() {
    await rm2(this.reservePath, { force: true }).catch(() => {
    });
  }
  get resultPath() {
    return join(this.dir, "result.json");
  }
  get reportPath() {
    return join(this.dir, "report.md");
  }
  get serverLogDir() {
    return join(this.dir, "server");
  }
  raw(name) {
    return join(this.dir, "raw", name);
  }
  async writeResult(result) {
    await writeResult(this.resultPath, result);
  }
  /**
   * The last write of a run's result: the reserve is given back first, and should the disk still
   * be too full for a second copy, the file is overwritten in place. Whatever the run ended with,
   * result.json says so.
   */
  async writeFinalResult(result) {
    await this.release();
    const text = resultText(result);
    try {
      await writeAtomic(this.resultPath, text);
    } catch (e) {
      if (!isNoSpace(e)) throw e;
      await writeInPlace(this.resultPath, text);
    }
  }
};
var resultText = (result) => `${JSON.stringify(ResultSchema.parse(result), null, 2)}
`;
async function writeResult(file, result) {
  await writeAtomic(file, resultText(result));
}
function migrated(raw, version, migrations) {
  let doc = raw;
  for (let step = 0; step < 10 && isObj(doc) && typeof doc.version === "number" && doc.version !== version; step++) {
    const migrate = migrations[doc.version];
    if (!migrate) break;
    doc = migrate(doc);
  }
  return doc;
}
async function readModel(file, kind, format, version, schema, migrations = {}) {
  let raw;
  try {
    raw = JSON.parse(await readFile2(file, "utf8"));
  } catch (e) {
    const code = e.code;
    throw new InputError(
      `${file}: ${code ? `cannot read the file (${code})` : `not valid JSON (${e.message})`}`
    );
  }
  const found = raw?.format;
  if (found !== format) throw new InputError(notThe(file, kind, format, found));
  raw = migrated(raw, version, migrations);
  const head = raw;
  if (head.version !== version) {
    const read2 = [...Object.keys(migrations).map(Number), version].sort((a, b) => a - b);
    throw new InputError(
      `${file}: ${kind} version ${String(head.version)} is not supported (this tiperf reads version${read2.length > 1 ? "s" : ""} ${read2.join(", ")})`
    );
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new InputError(formatIssues(file, parsed.error.issues));
  return parsed.data;
}
function notThe(file, kind, format, found) {
  const other = typeof found === "string" && found.startsWith("tiperf.") ? found.slice("tiperf.".length) : "";
  if (!other) return `${file}: not a tiperf ${kind} (format must be "${format}")`;
  const beside = join(dirname2(file), `${kind}.json`);
  const hint = existsSync(beside) && resolve(beside) !== resolve(file) ? `: give ${beside}, the run's ${kind}` : "";
  return `${file}: a tiperf ${other}, not a tiperf ${kind} (format "${found}", must be "${format}")${hint}`;
}
function resultFileOf(given) {
  return existsSync(given) && statSync(given).isDirectory() ? join(given, "result.json") : given;
}
async function readResult(given) {
  const file = resultFileOf(given);
  if (file !== given && !existsSync(file))
    throw new InputError(
      `${given}: a directory without result.json: give a run's directory or its result.json`
    );
  return readModel(file, "result", RESULT_FORMAT, RESULT_VERSION, ResultSchema, RESULT_MIGRATIONS);
}
async function readReport(file, format, check) {
  let doc;
  try {
    doc = JSON.parse(await readFile2(file, "utf8"));
  } catch {
    return void 0;
  }
  const r = doc;
  if (r?.format !== format) return void 0;
  const missing = check(r);
  if (missing) throw new InputError(`${file}: a ${format} report needs ${missing}`);
  return r;
}

// action/src/proc/git.ts
async function git(repo, args, timeoutMs = 12e4) {
  const r = await runCommand("git", ["-C", repo, ...args], { timeoutMs });
  return { code: r.code, out: r.stdout.trim(), err: r.stderr.trim().split("\n")[0] ?? "" };
}
async function commitAt(repo, ref) {
  const r = await git(repo, ["log", "-1", "--format=%H%x00%s", `${ref}^{commit}`, "--"]);
  if (r.code !== 0) return { error: r.err || `git exit ${r.code}` };
  const [commit = "", subject = ""] = r.out.split("\0");
  return { commit, subject };
}

// action/src/targets/local/kind.ts
import { cpus as cpus3 } from "node:os";

// action/src/proc/port.ts
import { linkSync, mkdirSync, readFileSync, renameSync, statSync as statSync2, unlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { basename, join as join2 } from "node:path";
var TEST_PICKS = [];
function freePort() {
  const picked = TEST_PICKS.shift();
  if (picked !== void 0) return Promise.resolve(picked);
  return new Promise((resolve4, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port2 = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve4(port2));
    });
  });
}
var PORT_CLAIMS = (env = inherited()) => env.TIPERF_PORT_CLAIMS || "/tmp/tiperf-ports";
function ephemeralRange(file = "/proc/sys/net/ipv4/ip_local_port_range") {
  try {
    const [lo, hi] = readFileSync(file, "utf8").trim().split(/\s+/).map(Number);
    if (Number.isInteger(lo) && Number.isInteger(hi) && lo <= hi)
      return [lo, hi];
  } catch {
  }
  return [32768, 60999];
}
function privateRange(ephemeral = ephemeralRange()) {
  const [lo, hi] = ephemeral;
  if (lo - 1 - 2e4 >= 1e3) return [2e4, lo - 1];
  if (65535 - (hi + 1) >= 1e3) return [hi + 1, 65535];
  return void 0;
}
var TIDB_PORT_TAILS = /* @__PURE__ */ new Set([379, 380, 0, 80, 160, 180, 930, 170, 292, 234, 90, 20, 300, 250, 249]);
var tidbPort = (port2) => TIDB_PORT_TAILS.has(port2 % 1e3);
var claimed = /* @__PURE__ */ new Map();
var releaseAtExit = false;
var alive2 = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
};
function claim(dir, port2) {
  const file = join2(dir, String(port2));
  const mine = join2(dir, `.${port2}.${process.pid}`);
  writeFileSync(mine, `${process.pid}
`);
  try {
    for (let tries = 0; tries < 2; tries++) {
      try {
        linkSync(mine, file);
        return true;
      } catch (e) {
        if (e.code !== "EEXIST" || !takeOverStale(dir, file)) return false;
      }
    }
    return false;
  } finally {
    unlinkSync(mine);
  }
}
function takeOverStale(dir, file) {
  let seen;
  let owner;
  try {
    seen = statSync2(file).ino;
    owner = Number(readFileSync(file, "utf8").trim());
  } catch {
    return true;
  }
  if (owner === process.pid || Number.isInteger(owner) && owner > 0 && alive2(owner)) return false;
  const aside = join2(dir, `.stale.${process.pid}.${basename(file)}`);
  try {
    renameSync(file, aside);
  } catch {
    return false;
  }
  const same = statSync2(aside).ino === seen;
  if (!same)
    try {
      linkSync(aside, file);
    } catch {
    }
  unlinkSync(aside);
  return same;
}
var bindable = (port2) => new Promise((resolve4) => {
  const srv = createServer();
  srv.unref();
  srv.once("error", () => resolve4(false));
  srv.listen(port2, "127.0.0.1", () => srv.close(() => resolve4(true)));
});
async function privatePort(o = {}) {
  const picked = TEST_PICKS.shift();
  if (picked !== void 0) return picked;
  const range = o.range ?? privateRange();
  if (!range) return freePort();
  const dir = o.claims ?? PORT_CLAIMS();
  mkdirSync(dir, { recursive: true, mode: 1023 });
  if (!releaseAtExit) {
    releaseAtExit = true;
    process.once("exit", () => {
      for (const file of claimed.values())
        try {
          unlinkSync(file);
        } catch {
        }
    });
  }
  const [lo, hi] = range;
  const size = hi - lo + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port2 = lo + (start + i) % size;
    if (tidbPort(port2) || claimed.has(port2) || !claim(dir, port2)) continue;
    claimed.set(port2, join2(dir, String(port2)));
    if (await (o.free ?? bindable)(port2)) return port2;
  }
  throw new Error(`no free port in ${lo}\u2013${hi} (every one claimed in ${dir} or in use)`);
}
var PORT_TRIES = 3;
var portTaken = (e) => /address already in use/i.test(e.message);
async function startOnFreePort(start, log, how = {}) {
  const again = how.again ?? (() => "its port was taken before the server could bind it; starting again on another port");
  const retryable = how.retryable ?? portTaken;
  for (let attempt = 0; ; attempt++) {
    try {
      return await start(attempt);
    } catch (e) {
      if (attempt + 1 >= PORT_TRIES || !retryable(e)) throw e;
      log(`${again(attempt, e)} (try ${attempt + 2} of ${PORT_TRIES})`);
    }
  }
}

// action/src/targets/plan-step.ts
var PORT_AT_START = 65536;
var PORT_TEXT = "<port>";
var PASSWORD_AT_START = "<password>";
function stepOf(steps, key) {
  const step = steps.find((x) => x.key === key);
  if (!step) throw new RunError(`the plan has no step ${key}: a run does only what \`tiperf plan\` shows`);
  return step;
}
function filledStep(step, fill) {
  const r = step.run;
  const run = "command" in r ? {
    command: r.command.map(fill),
    ...r.env ? { env: Object.fromEntries(Object.entries(r.env).map(([k, v]) => [k, fill(v)])) } : {}
  } : "sql" in r ? { sql: fill(r.sql) } : "get" in r ? { get: fill(r.get) } : "delete" in r ? { delete: fill(r.delete) } : "patch" in r ? { patch: fill(r.patch), body: fill(r.body) } : { post: fill(r.post), body: fill(r.body) };
  return { ...step, run };
}
function stepLine(s) {
  const where = s.where === "runner" || s.where === void 0 ? "" : ` (${s.where})`;
  const run = s.run;
  const text = "sql" in run ? `SQL: ${run.sql}` : "get" in run ? `GET ${run.get}` : "post" in run ? `POST ${run.post} ${run.body}` : "patch" in run ? `PATCH ${run.patch} ${run.body}` : "delete" in run ? `DELETE ${run.delete}` : (
    // shell lines in sequence (a restart: "kill -TERM <pid>", then the start), not a path with a placeholder
    /^[a-z][\w-]* /.test(run.command[0] ?? "") ? run.command.join(" && ") : envCommand(run.env, run.command)
  );
  return `  [${s.phase}]${where} ${text}${s.about ? `    # ${s.about}` : ""}`;
}
function envCommand(env, argv) {
  return [...Object.entries(env ?? {}).map(([k, v]) => `${k}=${shellQuote(v)}`), shellCommand(argv)].join(
    " "
  );
}
function commandOf(step) {
  if (!step) return void 0;
  if (!("command" in step.run)) throw new RunError(`plan step ${step.key}: not a command line`);
  return step.run.command;
}
function sqlText(step) {
  if (!step) return void 0;
  if (!("sql" in step.run)) throw new RunError(`plan step ${step.key}: not a statement`);
  return step.run.sql;
}

// action/src/targets/tables.ts
var quoted = (s) => `'${s.replace(/'/g, "''")}'`;
var tableNamesSql = (protocol, database) => protocol === "mysql" ? `SELECT table_name FROM information_schema.tables WHERE table_schema = ${quoted(database)}` : "SELECT table_name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')";
var quotedIdent = (protocol, name) => protocol === "mysql" ? `\`${name.replace(/`/g, "``")}\`` : `"${name.replace(/"/g, '""')}"`;
var createDatabase = (name, o) => `CREATE DATABASE ${o.ifAbsent ? "IF NOT EXISTS " : ""}${name}`;
var createDatabaseSql = (name) => [createDatabase(name, { ifAbsent: true })];

// action/src/targets/endpoint/client.ts
function clientArgs(protocol, ep, query, database) {
  if (protocol === "mysql")
    return [
      firstTool(MYSQL_CLIENTS),
      "--no-defaults",
      "-h",
      ep.host,
      "-P",
      String(ep.port),
      "-u",
      ep.user,
      ...ep.tls ? ["--ssl", "--ssl-verify-server-cert"] : [],
      ...database ? ["-D", database] : [],
      "-N",
      "-B",
      "-e",
      query
    ];
  return [
    "psql",
    "-X",
    "-A",
    "-t",
    "-q",
    "-v",
    "ON_ERROR_STOP=1",
    "-h",
    ep.host,
    "-p",
    String(ep.port),
    "-U",
    ep.user,
    "-d",
    database ?? "postgres",
    "-c",
    query
  ];
}
function passwordOf(ep, file, env = inherited()) {
  if (!ep.password_env) return "";
  const value = env[ep.password_env];
  if (value === void 0)
    throw new RunError(
      `${file}: endpoint.password_env names ${ep.password_env}, which is not set in tiperf's environment`
    );
  return value;
}
function endpointSql(protocol, ep, password, database) {
  const env = childEnv(
    protocol === "mysql" ? password ? { MYSQL_PWD: password } : {} : {
      ...password ? { PGPASSWORD: password } : {},
      PGSSLMODE: ep.tls ? "require" : "prefer",
      PGCONNECT_TIMEOUT: "10"
    }
  );
  return async (query) => {
    const [cmd, ...args] = clientArgs(protocol, ep, query, database);
    const r = await runCommand(cmd, args, { timeoutMs: 6e4, env });
    if (r.code !== 0)
      throw new RunError(
        maskSecrets(
          `${ep.user}@${ep.host}:${ep.port}: ${query.slice(0, 120)} failed: ${(r.stderr || r.stdout).trim().slice(-600)}`
        )
      );
    return r.stdout.trim();
  };
}

// action/src/targets/endpoint/sql.ts
function runDatabase(prefix) {
  return prefix.toLowerCase().replace(/[^a-z0-9_]/g, "_").replace(/^([^a-z_])/, "_$1").slice(0, 63);
}
var ownDatabaseSql = (name) => createDatabase(name, { ifAbsent: false });
var dropDatabaseSql = (name) => `DROP DATABASE IF EXISTS ${name}`;
var tablesSql = (protocol, database) => protocol === "mysql" ? `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ${quoted(database)}` : "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')";
var existsSql = (protocol, database) => protocol === "mysql" ? `SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ${quoted(database)}` : `SELECT COUNT(*) FROM pg_database WHERE datname = ${quoted(database)}`;

// action/src/targets/endpoint/plan.ts
var placeKey = (step, p) => `endpoint-${step}:${p.key}`;
var factKey = (name, p) => `endpoint-fact:${name}:${p.key}`;
var afterLoadKey = (table, p) => `endpoint-after-load:${p.key}:${table}`;
function endpointRefusals(input, places) {
  const out = [];
  if (input.blocks > 1)
    out.push(
      `${input.file}: compare.blocks is ${input.blocks}, but ${places.map((p) => p.file).join(", ")} ${places.length > 1 ? "are existing endpoints" : "is an existing endpoint"}: tiperf never restarts a server it did not start, so there are no fresh instances to compare; use compare.blocks: 1`
    );
  return out;
}
function placesOf(input, variants) {
  const places = [];
  const byVariant = {};
  for (const v of variants) {
    const ep = v.profile.endpoint;
    const database = ep.database ?? runDatabase(input.prefix);
    const key = `${ep.host}:${ep.port}/${database}`;
    let i = places.findIndex((p) => p.key === key);
    if (i < 0) {
      i = places.length;
      places.push({ key, file: v.file, profile: v.profile, database, owned: !ep.database, variants: [] });
    }
    places[i]?.variants.push(v.name);
    byVariant[v.name] = i;
  }
  return { places, byVariant };
}
function placeSteps(server, input, p) {
  const ep = p.profile.endpoint;
  const variant = p.variants[0];
  const where = "runner";
  const on = `endpoint ${p.profile.name} (${ep.host}:${ep.port}, borrowed)`;
  const steps = [
    {
      key: placeKey("version", p),
      phase: "record",
      variant,
      where,
      run: { command: clientArgs(server.protocol, ep, server.versionSql) },
      about: `${on}: the server's version, recorded${ep.password_env ? `; password from $${ep.password_env} in the client's environment` : ""}`
    },
    ...Object.entries(server.factSteps?.(ep) ?? {}).map(([name, run]) => ({
      key: factKey(name, p),
      phase: "record",
      variant,
      where,
      run,
      about: `${on}: ${name}, recorded`
    }))
  ];
  if (p.owned)
    steps.push(
      {
        key: placeKey("exists", p),
        phase: "start",
        variant,
        where,
        run: { sql: existsSql(server.protocol, p.database) },
        about: `${on}: the run's own database must not exist yet (tiperf touches no database it did not create)`
      },
      {
        key: placeKey("create", p),
        phase: "start",
        variant,
        where,
        run: { sql: ownDatabaseSql(p.database) },
        about: `${on}: the run's own database; every load tool uses it`
      }
    );
  else
    steps.push({
      key: placeKey("tables", p),
      phase: "start",
      variant,
      where,
      run: { sql: tablesSql(server.protocol, p.database) },
      about: `${on}: endpoint.database ${p.database} is the profile's; ${ep.allow_existing_tables ? "tables there are allowed (allow_existing_tables)" : "refused if it holds tables (endpoint.allow_existing_tables)"}; never dropped`
    });
  const tables = new Set(server.afterLoadStep ? input.loads.flatMap((l) => l.tables) : []);
  for (const table of tables)
    if (server.afterLoadStep)
      steps.push({
        key: afterLoadKey(table, p),
        phase: "after-load",
        variant,
        where,
        run: server.afterLoadStep(p.database, table),
        about: `${on}: after the load, the run's own tables`
      });
  return steps;
}
function endpointCost(server, places) {
  const c = server.counters;
  if (!c) return { metrics: [], source: `an existing ${server.title} gives tiperf no counters it can read` };
  const metrics = places.map((p) => c.metrics(p.profile.endpoint)).reduce((all, m) => all.filter((x) => m.includes(x)));
  const sources = [...new Set(places.map((p) => c.source(p.profile.endpoint)))];
  return {
    metrics,
    source: `${sources.join("; ")}${metrics.length ? ` of the existing ${server.title}` : ""}`,
    note: "they count every client's work on the server, not only this run's"
  };
}
function connectionOf(server, p) {
  const ep = p.profile.endpoint;
  return {
    protocol: server.protocol,
    endpoints: [{ host: ep.host, port: ep.port }],
    user: ep.user,
    password: ep.password_env ? PASSWORD_AT_START : "",
    database: p.database,
    ...ep.tls ? { tls: true } : {}
  };
}

// action/src/targets/endpoint/deployment.ts
var ENDPOINT_DATABASE = "endpoint-database";
function tablesOf(protocol, ep, password) {
  return {
    async tablesIn(database, sql) {
      const out = await endpointSql(protocol, ep, password, database)(sql);
      return out.split("\n").map((l) => l.trim()).filter((l) => l !== "");
    },
    async dropTable(database, table) {
      const sql = `DROP TABLE ${quotedIdent(protocol, table)}`;
      await endpointSql(protocol, ep, password, database)(sql);
      return sql;
    }
  };
}
async function createRunDatabase(x) {
  const { server, place: p, password, sql, planned, o } = x;
  const ep = p.profile.endpoint;
  if (Number(await sql(planned(placeKey("exists", p)))) > 0)
    throw new RunError(
      `${p.file}: database ${p.database} already exists on ${ep.host}:${ep.port}; tiperf creates the run's own and touches none it did not create (a run of the same id left it? drop it by hand, or \`tiperf reap\`)`
    );
  await sql(planned(placeKey("create", p)));
  const forget = await record({
    resource: ENDPOINT_DATABASE,
    what: `database ${p.database} on ${ep.host}:${ep.port} (${p.profile.name})`,
    path: `${ep.host}:${ep.port}/${p.database}`,
    protocol: server.protocol,
    endpoint: ep,
    database: p.database
  });
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await endpointSql(server.protocol, ep, password)(planned(placeKey("drop", p)));
    o.log(`teardown: dropped database ${p.database} on ${ep.host}:${ep.port}`);
    await forget();
  };
  const unregister = onTeardown(`drop database ${p.database} on ${ep.host}:${ep.port}`, drop);
  return async () => {
    unregister();
    await drop();
  };
}
async function checkProfileDatabase(x) {
  const { server, place: p, password, planned } = x;
  const ep = p.profile.endpoint;
  const tables = Number(
    await endpointSql(server.protocol, ep, password, p.database)(planned(placeKey("tables", p)))
  );
  if (tables > 0 && !ep.allow_existing_tables)
    throw new RunError(
      `${p.file}: endpoint.database ${p.database} on ${ep.host}:${ep.port} holds ${tables} table(s); tiperf loads only into an empty database unless endpoint.allow_existing_tables is true (the load tools replace tables of their own names)`
    );
}
function borrowedTarget(x, variant, version, facts) {
  const { server, place: p, password, planned, o } = x;
  const ep = p.profile.endpoint;
  const inDatabase = endpointSql(server.protocol, ep, password, p.database);
  const counters = server.counters;
  const shared = { loaded: /* @__PURE__ */ new Set(), users: 0 };
  return {
    owner: "borrowed",
    where: `${ep.host}:${ep.port}`,
    ...tablesOf(server.protocol, ep, password),
    kind: server.kind,
    version,
    connection: { ...connectionOf(server, p), password },
    pids: [],
    state: () => `the existing ${server.title} at ${ep.host}:${ep.port} (borrowed; its state is not known here)`,
    async createDatabase(name) {
      if (name !== p.database)
        throw new RunError(
          `endpoint ${p.profile.name}: the run uses database ${p.database} only, not ${name}`
        );
    },
    settings: {},
    effectiveConfig: {},
    died: new Promise(() => {
    }),
    // the server is borrowed: a variant's stop only leaves it; the deployment drops the database
    stop: async () => {
      if (shared.users > 0) shared.users--;
    },
    sharedData: shared,
    restart: { cannot: "is borrowed: tiperf never restarts it" },
    activate: { cannot: "is one existing server every variant shares: there is nothing to switch" },
    watch: { cannot: "is borrowed: its state is not known here" },
    cpuProfiles: { cannot: "is borrowed: tiperf takes no profile of its servers" },
    serverHosts: { cannot: "is reached over SQL only: there is no host to sample" },
    costCounters: counters?.metrics(ep).length ? () => counters.read(inDatabase, ep) : { cannot: `keeps no counters tiperf reads at ${ep.host}:${ep.port}` },
    afterLoad: server.afterLoadStep ? async (load) => {
      for (const table of load.tables) await inDatabase(planned(afterLoadKey(table, p)));
      o.log(`variant ${variant}: ${load.tables.length} tables of ${load.database} analyzed`);
    } : { cannot: "needs nothing after a load" },
    details: {
      endpoint: `${ep.host}:${ep.port}`,
      profile: p.profile.name,
      ownership: "borrowed",
      database: p.database,
      database_created_by_run: p.owned,
      tls: ep.tls,
      ...facts
    }
  };
}
async function openEndpoints(plan, o) {
  const { server, places, byVariant } = plan.endpoint;
  const targets = /* @__PURE__ */ new Map();
  const drops = [];
  const executed = [];
  const open2 = async (i, variant) => {
    const p = places[i];
    const ep = p.profile.endpoint;
    const password = passwordOf(ep, p.file);
    addSecret(password);
    const sql = endpointSql(server.protocol, ep, password);
    const plannedStep = (key) => {
      const planned2 = stepOf(plan.steps, key);
      executed.push({ ...planned2, variant });
      return planned2.run;
    };
    const fact = (name) => plan.steps.some((s) => s.key === factKey(name, p)) ? plannedStep(factKey(name, p)) : void 0;
    const planned = (key) => plannedStep(key).sql;
    const x = { server, place: p, password, sql, planned, o };
    plannedStep(placeKey("version", p));
    const version = (await sql(server.versionSql)).split("\n")[0] ?? "";
    const facts = await server.facts?.(sql, fact) ?? {};
    if (p.owned) drops.push({ what: p.database, run: await createRunDatabase(x) });
    else await checkProfileDatabase(x);
    o.log(
      `target: ${server.title} ${version} at ${ep.host}:${ep.port} (endpoint ${p.profile.name}, borrowed); the run's database ${p.database}${p.owned ? " (created by this run)" : ""}`
    );
    return borrowedTarget(x, variant, version, facts);
  };
  return {
    executed,
    async target(variant) {
      const i = byVariant[variant];
      if (i === void 0) throw new Error(`no variant ${variant} in this plan`);
      let t = targets.get(i);
      if (!t) {
        t = await open2(i, variant);
        targets.set(i, t);
      }
      if (t.sharedData) t.sharedData.users++;
      return t;
    },
    async stop() {
      for (const d of drops.splice(0).reverse())
        await d.run().catch((e) => o.log(`teardown: dropping ${d.what} failed: ${e.message}`));
    }
  };
}
function planEndpoints(server, input, variants, refusals) {
  const { places, byVariant } = placesOf(input, variants);
  const steps = places.flatMap((p) => placeSteps(server, input, p));
  for (const p of places)
    if (p.owned)
      steps.push({
        key: placeKey("drop", p),
        phase: "teardown",
        variant: p.variants[0],
        where: "runner",
        run: { sql: dropDatabaseSql(p.database) },
        about: `endpoint ${p.profile.name}: always (success, failure, cancel, SIGTERM); \`tiperf reap\` if tiperf was killed; nothing else on the server is touched`
      });
  const connection = (variant) => connectionOf(server, places[byVariant[variant] ?? 0]);
  const plan = {
    kind: server.kind,
    profile: [...new Set(places.map((p) => p.profile.name))].join("+"),
    variants: input.variants,
    about: places.map(
      (p) => `endpoint ${p.profile.name} (${p.file}): an existing ${server.title} at ${p.profile.endpoint.host}:${p.profile.endpoint.port}${p.profile.endpoint.tls ? " over TLS" : ""}, borrowed: it is never stopped, restarted or reconfigured; ${p.owned ? `the run's own database ${p.database} is created and dropped at the end` : `database ${p.database} (the profile's) is used and never dropped`}; variants ${p.variants.join(", ")}`
    ),
    files: {},
    steps,
    connection,
    dataOf: (variant) => places[byVariant[variant] ?? 0]?.key ?? variant,
    remoteLoad: false,
    ownership: "borrowed",
    localServers: false,
    cost: endpointCost(server, places),
    overhead: { setupS: 5 * places.length, switchS: 0, restartS: 0 },
    switching: "none",
    warnings: [],
    refusals: [...refusals, ...endpointRefusals(input, places)],
    endpoint: { server, places, byVariant },
    open: (o) => openEndpoints(plan, o)
  };
  return plan;
}

// action/src/targets/endpoint/schema.ts
var HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^[0-9a-fA-F:]+$/;
var port = external_exports.number().int().min(1, "must be a port (1\u201365535)").max(65535, "must be a port (1\u201365535)");
var EndpointSchema = external_exports.strictObject({
  host: external_exports.string().regex(HOST, "must be a host name or IP address (like tidb.staging.internal)"),
  port,
  user: external_exports.string().min(1, "must name the user tiperf connects as"),
  /** The environment variable that holds the password (never the password itself). */
  password_env: external_exports.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be the name of an environment variable (like TIDB_PASSWORD)").optional(),
  /** TiDB's status port (/status, /config), when reachable from the runner. */
  status_port: port.optional(),
  /** Connect over TLS (TiDB Cloud requires it). */
  tls: external_exports.boolean().default(false),
  /**
   * A database tiperf may use that already exists (where users cannot create databases); by
   * default the run creates its own, named by the run, and drops it at the end.
   */
  database: external_exports.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a plain database name (lower-case letters, digits, _)").optional(),
  /** Load into `database` even when it holds tables (the load tools' own tables are replaced). */
  allow_existing_tables: external_exports.boolean().default(false)
});
var EndpointProfileSchema = external_exports.strictObject({
  name: external_exports.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, "must be lower-case letters, digits, _ or -"),
  description: external_exports.string().optional(),
  provider: external_exports.literal("endpoint", { error: "must be endpoint (an existing server)" }),
  endpoint: EndpointSchema
});

// action/src/targets/endpoint/profile.ts
async function loadEndpointProfile(file, flag) {
  const yaml = parseYaml(await readProfileText(file, flag), file);
  if (yaml.raw === null || typeof yaml.raw !== "object" || Array.isArray(yaml.raw))
    throw new InputError(`${file}: a profile is a YAML mapping with keys name, provider, endpoint`);
  return validateYaml(EndpointProfileSchema, yaml, file);
}

// action/src/targets/endpoint/provider.ts
var ENDPOINT_PROVIDER = "endpoint";
function profileKey(input, i) {
  if (input.profile) return "--profile";
  return `${variantAt(input.variants.length, input.variants[i]?.name ?? "base")}target.profile`;
}
var PRIVATE_PROVIDER = "local";
function providerOf(input, profiles, server) {
  const existing = profiles.map((p2) => p2?.provider === ENDPOINT_PROVIDER);
  const differs = existing.findIndex((e) => !e);
  if (differs < 0) return ENDPOINT_PROVIDER;
  if (!existing.some(Boolean)) return profiles[0]?.provider ?? PRIVATE_PROVIDER;
  const at2 = variantAt(input.variants.length, input.variants[differs]?.name ?? "base");
  const p = profiles[differs];
  throw new InputError(
    `${input.file}: ${at2}target.profile${p ? ` ${p.file} deploys ${server} (provider ${p.provider})` : ": none named, so tiperf starts a private server"} while another variant measures an existing one (provider ${ENDPOINT_PROVIDER}): that compares two machines, not a change; give every variant an endpoint profile, or none`
  );
}

// action/src/targets/endpoint/reapers.ts
var ENDPOINT_REAPERS = {
  [ENDPOINT_DATABASE]: {
    order: 10,
    describe: (e) => `drop ${e.what}`,
    async reap(e, log) {
      const ep = EndpointSchema.parse(e.endpoint);
      const password = passwordOf(ep, `the ledger's entry for ${e.what}`);
      addSecret(password);
      await endpointSql(
        e.protocol,
        ep,
        password
      )(dropDatabaseSql(String(e.database)));
      log(`reaped: dropped ${e.what}`);
    }
  }
};

// action/src/targets/types.ts
function able(c) {
  return typeof c === "function" ? c : void 0;
}

// action/src/targets/local/cgroup.ts
import { existsSync as existsSync2 } from "node:fs";
import { mkdir as mkdir3, readFile as readFile3, rmdir as rmdir2, writeFile as writeFile3 } from "node:fs/promises";
import { join as join3 } from "node:path";
var ROOT = "/sys/fs/cgroup";
var PERIOD_US = 1e4;
function cgroupPrefix(env = inherited()) {
  const p = env.TIPERF_CGROUP_PREFIX;
  if (!p) return "tiperf-";
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(p))
    throw new RunError(
      `TIPERF_CGROUP_PREFIX must be letters, digits, - or _ (1 to 40), got ${JSON.stringify(p)}`
    );
  return p;
}
async function detect() {
  const controllers = join3(ROOT, "cgroup.controllers");
  if (existsSync2(controllers) && (await readFile3(controllers, "utf8")).split(/\s+/).includes("cpu")) {
    return { version: 2, dir: ROOT };
  }
  for (const d of ["cpu", "cpu,cpuacct"]) {
    if (existsSync2(join3(ROOT, d, "cpu.cfs_quota_us"))) return { version: 1, dir: join3(ROOT, d) };
  }
  return void 0;
}
async function processTree(root) {
  return treeOf([root], parents());
}
async function cpuFlavor() {
  const flavor = await detect();
  if (!flavor) {
    throw new RunError(
      "target.resources.cpu_quota: this machine offers neither cgroup v2 cpu.max nor cgroup v1 cpu.cfs_quota_us under /sys/fs/cgroup; remove cpu_quota or run where the cpu controller is available"
    );
  }
  return flavor;
}
var MIN_QUOTA_US = 1e3;
var MAX_PERIOD_US = 1e6;
function cpuMax(quota) {
  const periodUs = Math.min(MAX_PERIOD_US, Math.max(PERIOD_US, Math.ceil(MIN_QUOTA_US / quota)));
  return { quotaUs: Math.max(MIN_QUOTA_US, Math.round(quota * periodUs)), periodUs };
}
function cpuMaxText(quota) {
  const { quotaUs, periodUs } = cpuMax(quota);
  return `${quotaUs} ${periodUs}`;
}
async function writeQuota(flavor, dir, quota) {
  if (flavor.version === 2) {
    await writeFile3(join3(dir, "cpu.max"), cpuMaxText(quota));
  } else {
    const { quotaUs, periodUs } = cpuMax(quota);
    await writeFile3(join3(dir, "cpu.cfs_period_us"), String(periodUs));
    await writeFile3(join3(dir, "cpu.cfs_quota_us"), String(quotaUs));
  }
}
function cpuCgroupOf(flavor, text) {
  return text.split("\n").map((line) => line.split(":")).find(
    ([, controllers]) => flavor.version === 2 ? controllers === "" : controllers?.split(",").includes("cpu")
  )?.[2];
}
async function applyResources(pid, quota, name) {
  const flavor = await cpuFlavor();
  const dir = join3(flavor.dir, `${cgroupPrefix()}${name}-${pid}`);
  const forget = await record({ resource: "cgroup", what: `cgroup of ${name} ${pid}`, path: dir });
  try {
    await mkdir3(dir, { recursive: true });
    await writeQuota(flavor, dir, quota);
    for (const p of await processTree(pid)) {
      await writeFile3(join3(dir, "cgroup.procs"), String(p)).catch(() => {
      });
    }
  } catch (e) {
    throw new RunError(
      `target.resources.cpu_quota: cannot set up cgroup ${dir} (${e.message}); tiperf needs write access to the cgroup cpu controller (run as root)`
    );
  }
  const remove = async () => {
    for (let i = 0; i < 20; i++) {
      try {
        await rmdir2(dir);
        await forget();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  return { dir, remove };
}
function parseCpuStat(text) {
  const out = {};
  for (const line of text.split("\n")) {
    const [k, v] = line.trim().split(/\s+/);
    if (k && v !== void 0 && /^\d+$/.test(v)) out[k] = Number(v);
  }
  return out;
}
async function cpuThrottle(pids) {
  const flavor = await detect();
  if (!flavor) return void 0;
  const dirs = /* @__PURE__ */ new Set();
  for (const pid of pids) {
    const own = cpuCgroupOf(flavor, await readFile3(`/proc/${pid}/cgroup`, "utf8").catch(() => ""));
    if (own?.split("/").pop()?.startsWith(cgroupPrefix())) dirs.add(join3(flavor.dir, own));
  }
  if (dirs.size === 0) return void 0;
  const total = { periods: 0, throttled_periods: 0, throttled_s: 0 };
  for (const dir of dirs) {
    const stat = parseCpuStat(await readFile3(join3(dir, "cpu.stat"), "utf8").catch(() => ""));
    total.periods += stat.nr_periods ?? 0;
    total.throttled_periods += stat.nr_throttled ?? 0;
    total.throttled_s += (stat.throttled_usec ?? 0) / 1e6 + (stat.throttled_time ?? 0) / 1e9;
    if (stat.usage_usec !== void 0) total.usage_s = (total.usage_s ?? 0) + stat.usage_usec / 1e6;
  }
  return total;
}
function throttleBetween(a, b) {
  if (!a || !b) return void 0;
  const r = (x) => Math.round(x * 1e6) / 1e6;
  return {
    periods: Math.max(0, b.periods - a.periods),
    throttled_periods: Math.max(0, b.throttled_periods - a.throttled_periods),
    throttled_s: r(Math.max(0, b.throttled_s - a.throttled_s)),
    ...a.usage_s !== void 0 && b.usage_s !== void 0 ? { usage_s: r(Math.max(0, b.usage_s - a.usage_s)) } : {}
  };
}

// action/src/targets/local/reapers.ts
import { readFileSync as readFileSync2 } from "node:fs";
import { copyFile, mkdir as mkdir4, rm as rm3, rmdir as rmdir3 } from "node:fs/promises";
import { basename as basename2, join as join4 } from "node:path";
async function keepLogs(logs, logDir) {
  try {
    await mkdir4(logDir, { recursive: true });
  } catch {
    return;
  }
  for (const log of logs) await copyFile(log, join4(logDir, basename2(log))).catch(() => {
  });
}
function cmdline(pid) {
  try {
    return readFileSync2(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}
async function stopRecorded(pid, marker, signal, waitMs) {
  if (!pid || !alive(pid) || !cmdline(pid).includes(marker)) return false;
  process.kill(pid, signal);
  for (let waited = 0; waited < waitMs && alive(pid); waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, "SIGKILL");
  return true;
}
var serverReaper = {
  order: 0,
  describe: (e) => `stop ${e.what}${e.pid ? ` pid ${e.pid}` : ""} and remove ${e.path}`,
  async reap(e, log) {
    if (await stopRecorded(e.pid, e.path, e.signal ?? "SIGTERM", 1e4))
      log(`reap: stopped ${e.what} pid ${e.pid}`);
    const logs = e.logs;
    const logDir = e.log_dir;
    if (logs && logDir) {
      await keepLogs(logs, logDir);
      log(`reap: kept the server's logs in ${logDir}`);
    }
    await rm3(e.path, { recursive: true, force: true });
    log(`reap: removed ${e.path}`);
  }
};
var cgroupReaper = {
  order: 1,
  describe: (e) => `remove ${e.path}`,
  async reap(e, log) {
    await rmdir3(e.path).catch(() => {
    });
    log(`reap: removed ${e.path}`);
  }
};
var LOCAL_REAPERS = { server: serverReaper, cgroup: cgroupReaper };

// action/src/targets/local/schema.ts
var SERVER_SETTING = /^[a-z][a-z0-9_.-]*$/i;
var scalar = external_exports.union([external_exports.string(), external_exports.number(), external_exports.boolean()]);
function parsePercent(value) {
  const m = /^(\d+(?:\.\d+)?)%$/.exec(value.trim());
  return m ? Number(m[1]) / 100 : void 0;
}
var CPU_LIST = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;
var cpuList = external_exports.string().regex(CPU_LIST, 'must be a CPU list like "0", "0-1" or "0,2" (as taskset -c takes)');
var cpuQuota = external_exports.string({ error: "cpu_quota must be a percentage like 90% (a number followed by %)" }).transform((v, ctx) => {
  const f = parsePercent(v);
  if (f === void 0 || f < 1e-3 || f > 64) {
    ctx.addIssue({
      code: "custom",
      message: `cpu_quota must be a percentage like "5%" from 0.1% to 6400% (got ${JSON.stringify(v)})`
    });
    return external_exports.NEVER;
  }
  return f;
});
var ResourcesSchema = external_exports.strictObject({
  /** CPUs the database server may run on (sched affinity, as tiup's numa/cpu binding). */
  cpus: cpuList.optional(),
  /** Share of one CPU for the database server ("90%"), as tiup's resource_control / systemd CPUQuota. */
  cpu_quota: cpuQuota.optional()
});
var localTargetSchema = (kind) => external_exports.strictObject({
  kind: external_exports.literal(kind),
  /** Server settings (MariaDB options, PostgreSQL GUCs), read back once the server runs. */
  config: external_exports.record(external_exports.string().regex(SERVER_SETTING, "server setting names are letters, digits, _ . -"), scalar).optional(),
  resources: ResourcesSchema.optional(),
  /**
   * A profile of an existing server (provider endpoint) to measure instead of a private one;
   * --profile overrides it.
   */
  profile: external_exports.string().min(1).optional()
}).transform((t) => ({ ...t, config: t.config ?? {} }));

// action/src/targets/local/server.ts
import { statfsSync as statfsSync2 } from "node:fs";
import { mkdtemp, rm as rm4 } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join as join7 } from "node:path";

// action/src/observe/procfs.ts
import { execFileSync } from "node:child_process";
import { existsSync as existsSync3, readdirSync, readFileSync as readFileSync3 } from "node:fs";
import { cpus as cpus2 } from "node:os";
import { join as join5 } from "node:path";

// action/src/proc/affinity.ts
import { cpus } from "node:os";
function cpuIndexes(list2) {
  return list2.split(",").flatMap((part) => {
    const [a, b] = part.split("-").map(Number);
    return b === void 0 ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
}
function checkCpus(key, list2) {
  const n = cpus().length;
  const bad = cpuIndexes(list2).filter((c) => c >= n);
  if (bad.length > 0)
    throw new RunError(
      `${key}: CPU ${bad.join(", ")} does not exist here (this machine has CPUs 0-${n - 1})`
    );
}
async function pinProcesses(pids, list2, key) {
  checkCpus(key, list2);
  for (const pid of pids) {
    const r = await runCommand("taskset", ["-a", "-p", "-c", list2, String(pid)]);
    if (r.code !== 0)
      throw new RunError(`${key}: taskset could not pin pid ${pid} to CPUs ${list2}: ${r.stderr.trim()}`);
  }
}

// action/src/observe/procfs.ts
var ticks;
function clockTicks() {
  if (ticks === void 0) {
    try {
      ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}
var read = (file) => {
  try {
    return readFileSync3(file, "utf8");
  } catch {
    return void 0;
  }
};
function sampleProcess(pid) {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return void 0;
  const { comm, fields: f } = parseStat(stat);
  const status = read(`/proc/${pid}/status`) ?? "";
  const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  const io = read(`/proc/${pid}/io`);
  const ioField = (name) => {
    const m = io && new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(io);
    return m ? Number(m[1]) : void 0;
  };
  const readBytes = ioField("read_bytes");
  const writeBytes = ioField("write_bytes");
  return {
    pid,
    ppid: Number(f[1]),
    comm,
    ticks: Number(f[11]) + Number(f[12]),
    rssBytes: rssKb * 1024,
    ...readBytes !== void 0 ? { readBytes } : {},
    ...writeBytes !== void 0 ? { writeBytes } : {}
  };
}
function cpuLine(line) {
  if (!line.startsWith("cpu ")) return void 0;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((s, x) => s + (x || 0), 0);
  return { busy: total - (v[3] ?? 0) - (v[4] ?? 0), total };
}
function machineTicks() {
  return cpuLine(read("/proc/stat")?.split("\n")[0] ?? "");
}
function threadTimes(skip) {
  const out = /* @__PURE__ */ new Map();
  let pids = [];
  try {
    pids = readdirSync("/proc");
  } catch {
    return out;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid) || skip.has(Number(pid))) continue;
    let tids = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      if (!stat) continue;
      const f = parseStat(stat).fields;
      out.set(Number(tid), { ticks: Number(f[11]) + Number(f[12]), cpu: Number(f[36]) });
    }
  }
  return out;
}
function quotaOf(pid) {
  const lines = (read(`/proc/${pid}/cgroup`) ?? "").trim().split("\n");
  let tightest;
  const take = (q) => {
    if (q !== void 0 && q > 0 && (tightest === void 0 || q < tightest)) tightest = q;
  };
  const v2 = lines.find((l) => l.startsWith("0::"))?.slice(3);
  if (v2 !== void 0 && existsSync3("/sys/fs/cgroup/cgroup.controllers")) {
    for (let p = v2; ; p = p.slice(0, p.lastIndexOf("/"))) {
      const [max, period] = (read(join5("/sys/fs/cgroup", p, "cpu.max")) ?? "").trim().split(" ");
      if (max && max !== "max") take(Number(max) / Number(period));
      if (p === "" || p === "/") break;
    }
    return tightest;
  }
  const v1 = lines.map((l) => l.split(":")).find(([, c]) => c?.split(",").includes("cpu"));
  if (!v1) return void 0;
  const base = ["cpu", "cpu,cpuacct"].map((d) => join5("/sys/fs/cgroup", d)).find((d) => existsSync3(d));
  if (!base) return void 0;
  for (let p = v1[2] ?? "/"; ; p = p.slice(0, p.lastIndexOf("/"))) {
    const quota = Number(read(join5(base, p, "cpu.cfs_quota_us"))?.trim());
    const period = Number(read(join5(base, p, "cpu.cfs_period_us"))?.trim());
    if (quota > 0 && period > 0) take(quota / period);
    if (p === "" || p === "/") break;
  }
  return tightest;
}
function allowedCpus(pid) {
  const list2 = /^Cpus_allowed_list:\s+(\S+)/m.exec(read(`/proc/${pid}/status`) ?? "")?.[1];
  if (!list2) return void 0;
  try {
    const out = cpuIndexes(list2);
    return out.length ? out : void 0;
  } catch {
    return void 0;
  }
}
function cpuLimit(pid) {
  const n = allowedCpus(pid)?.length ?? cpus2().length;
  const q = quotaOf(pid);
  return q !== void 0 ? Math.min(n, q) : n;
}

// action/src/observe/server-counters.ts
function counterKey(component, series) {
  return `${component}:${series}`;
}
var isServerCounter = (key) => key.includes(":");
var LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*,?/y;
function parseLabels(body) {
  const out = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < body.length) {
    const at2 = LABEL.lastIndex;
    const m = LABEL.exec(body);
    if (!m) return body.slice(at2).trim() === "" ? out : void 0;
    out[m[1]] = m[2].replace(/\\(["\\n])/g, (_, c) => c === "n" ? "\n" : c);
  }
  return out;
}
function seriesKey(name, labels) {
  const keys = Object.keys(labels).sort();
  if (!keys.length) return name;
  const esc = (v) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
  return `${name}{${keys.map((k) => `${k}="${esc(labels[k])}"`).join(",")}}`;
}
function parseCounterKey(key) {
  const colon = key.indexOf(":");
  if (colon < 0) return void 0;
  const component = key.slice(0, colon);
  const series = key.slice(colon + 1);
  const brace = series.indexOf("{");
  if (brace < 0) return { component, name: series, labels: {} };
  const labels = series.endsWith("}") ? parseLabels(series.slice(brace + 1, -1)) : void 0;
  return { component, name: series.slice(0, brace), labels: labels ?? {} };
}
var SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$/;
function promCounters(text, component) {
  const types = /* @__PURE__ */ new Map();
  const out = {};
  for (const line of text.split("\n")) {
    if (line.startsWith("# TYPE ")) {
      const [, , name2, type] = line.split(/\s+/);
      if (name2 && type) types.set(name2, type);
      continue;
    }
    if (!line || line.startsWith("#")) continue;
    const m = SAMPLE.exec(line.trim());
    if (!m) continue;
    const name = m[1];
    if (!isMonotonic(name, types)) continue;
    const v = Number(m[3]);
    const labels = m[2] ? parseLabels(m[2]) : {};
    if (!Number.isFinite(v) || !labels) continue;
    const key = counterKey(component, seriesKey(name, withoutPaths(labels)));
    out[key] = (out[key] ?? 0) + v;
  }
  return out;
}
function withoutPaths(labels) {
  return Object.fromEntries(Object.entries(labels).filter(([, v]) => !v.startsWith("/")));
}
function sameSeries(counters) {
  const out = {};
  for (const [key, v] of Object.entries(counters)) {
    const k = parseCounterKey(key);
    const paths2 = k && Object.values(k.labels).some((l) => l.startsWith("/"));
    const same = k && paths2 ? counterKey(k.component, seriesKey(k.name, withoutPaths(k.labels))) : key;
    out[same] = (out[same] ?? 0) + v;
  }
  return out;
}
function isMonotonic(sample, types) {
  if (types.get(sample) === "counter") return true;
  if (sample.endsWith("_total") && types.get(sample.slice(0, -6)) === "counter") return true;
  const suffix = /_(count|sum)$/.exec(sample);
  if (!suffix) return false;
  const family = types.get(sample.slice(0, -suffix[0].length));
  return family === "histogram" || family === "summary";
}
function parseSelector(selector2) {
  const m = /^(?:([a-z][a-z0-9_-]*):)?([a-zA-Z_][a-zA-Z0-9_.]*)(?:\{(.*)\})?$/.exec(selector2);
  if (!m) return void 0;
  const labels = m[3] !== void 0 ? parseLabels(m[3]) : {};
  if (!labels) return void 0;
  return { component: m[1] ?? "", name: m[2], labels };
}
function selects(selector2, key) {
  const k = parseCounterKey(key);
  if (!k || k.name !== selector2.name) return false;
  if (selector2.component && selector2.component !== k.component) return false;
  return Object.entries(selector2.labels).every(([l, v]) => k.labels[l] === v);
}
function selectedTotal(selector2, counters) {
  let total;
  for (const [key, v] of Object.entries(counters)) if (selects(selector2, key)) total = (total ?? 0) + v;
  return total;
}
function isTime(key) {
  const name = parseCounterKey(key)?.name ?? key;
  if (/_count$/.test(name)) return false;
  return /seconds|_time(_|$|\.)|[._]time$|duration|latency|millis|nanoseconds|_us$|_ms$|^Query_time$|^Busy_time$|^Cpu_time$/i.test(
    name
  );
}
var COUNTER_GROUPS = [
  // a counting build's statements executed, one series per source file (targets/tidb/counting.ts)
  { group: "code executed", pattern: /^go_statements_total$|^go_stmts_per_op$/ },
  { group: "allocations", pattern: /alloc|malloc|frees|memstats|heap/i },
  { group: "GC", pattern: /(^|_)gc(_|$)|pauses/i },
  { group: "goroutine scheduling", pattern: /go_sched|goroutine/i },
  { group: "plan cache", pattern: /plan_cache|binding_cache|^Qcache/i },
  { group: "handler reads", pattern: /^Handler_/ },
  { group: "sorts", pattern: /sort/i },
  { group: "temporary tables", pattern: /tmp|temp_/i },
  {
    group: "statements",
    pattern: /statement|query_total|server_handle_query|compile|parse_dur|execute_dur|^Com_|^Questions$|^Queries$|\.calls$|xact_|transaction|^Select_/i
  },
  { group: "coprocessor and KV requests", pattern: /cop|distsql|tikvclient|tikv_|kv_|rpc|raft|grpc|region/i },
  { group: "rows and keys", pattern: /rows|keys|tup_|seq_scan|idx_scan|idx_tup|_scan/i },
  {
    group: "storage reads and writes",
    pattern: /buffer_pool|blks|^Innodb_|^Aria_|^Key_(read|write)|badger|rocksdb|bytes_read|bytes_written/i
  },
  { group: "network", pattern: /network|packet|^Bytes_|bytes_sent|received/i },
  { group: "CPU", pattern: /cpu_seconds/i }
];
function counterGroup(key) {
  const name = parseCounterKey(key)?.name ?? key;
  return COUNTER_GROUPS.find((g) => g.pattern.test(name))?.group ?? "other";
}

// action/src/observe/cost.ts
var COST_METRICS = {
  cpu_ms_per_op: { counter: "cpu_s", scale: 1e3, unit: "ms/op", label: "CPU ms/op" },
  alloc_kb_per_op: { counter: "alloc_bytes", scale: 1 / 1024, unit: "KiB/op", label: "alloc KiB/op" },
  mallocs_per_op: { counter: "mallocs", scale: 1, unit: "1/op", label: "mallocs/op" },
  gc_per_kop: { counter: "gc_cycles", scale: 1e3, unit: "1/kop", label: "GC/1k ops" },
  handler_reads_per_op: { counter: "handler_reads", scale: 1, unit: "1/op", label: "handler reads/op" },
  bp_reads_per_op: {
    counter: "innodb_buffer_pool_read_requests",
    scale: 1,
    unit: "1/op",
    label: "buffer pool reads/op"
  },
  tup_returned_per_op: { counter: "tup_returned", scale: 1, unit: "1/op", label: "tuples returned/op" },
  tup_fetched_per_op: { counter: "tup_fetched", scale: 1, unit: "1/op", label: "tuples fetched/op" },
  blks_hit_per_op: { counter: "blks_hit", scale: 1, unit: "1/op", label: "blocks hit/op" },
  // short names of server counters, one selector per kind of server that keeps one
  statements_per_op: {
    counter: "statements",
    selects: ["tidb:tidb_executor_statement_total", "mariadb:Questions", "postgres:pg_stat_statements.calls"],
    scale: 1,
    unit: "1/op",
    label: "statements/op"
  },
  // a counting build's Go statements executed (targets/tidb/counting.ts), summed over its files
  go_stmts_per_op: {
    counter: "go_statements",
    selects: ["tidb:go_statements_total"],
    scale: 1,
    unit: "1/op",
    label: "Go statements/op"
  },
  cop_requests_per_op: {
    counter: "cop_requests",
    selects: ['tidb:tidb_distsql_handle_query_duration_seconds_count{sql_type="general"}'],
    scale: 1,
    unit: "1/op",
    label: "coprocessor requests/op"
  },
  plan_cache_misses_per_op: {
    counter: "plan_cache_misses",
    selects: ["tidb:tidb_server_plan_cache_miss_total"],
    scale: 1,
    unit: "1/op",
    label: "plan cache misses/op"
  },
  tiny_allocs_per_op: {
    counter: "tiny_allocs",
    selects: ["tidb:go_gc_heap_tiny_allocs_objects_total"],
    scale: 1,
    unit: "1/op",
    label: "tiny allocs/op"
  },
  sched_events_per_op: {
    counter: "sched_events",
    selects: ["tidb:go_sched_latencies_seconds_count"],
    scale: 1,
    unit: "1/op",
    label: "goroutine schedulings/op"
  },
  rows_read_per_op: {
    counter: "rows_read",
    selects: ["mariadb:Rows_read"],
    scale: 1,
    unit: "1/op",
    label: "rows read/op"
  },
  tmp_tables_per_op: {
    counter: "tmp_tables",
    selects: ["mariadb:Created_tmp_tables"],
    scale: 1,
    unit: "1/op",
    label: "temporary tables/op"
  }
};
var PER_OP = "/op";
var COUNTERS_TIMEOUT_MS = 5e3;
var IDLE_WINDOW_S = 2;
var CODE_IDLE_WINDOW_S = 10;
function idleWindowOf(counters) {
  return Object.keys(counters).some((k) => k.includes(":go_statements_total{")) ? CODE_IDLE_WINDOW_S : IDLE_WINDOW_S;
}
var COMPONENTS = ["tidb", "tikv", "pd"];
function costMetric(name) {
  const own = COST_METRICS[name];
  if (own) return own;
  if (name.endsWith(PER_OP)) {
    const selector2 = name.slice(0, -PER_OP.length);
    if (!parseSelector(selector2)) return void 0;
    return { counter: selector2, selects: [selector2], scale: 1, unit: "1/op", label: `${selector2} /op` };
  }
  for (const c of COMPONENTS) {
    const base = name.startsWith(`${c}_`) ? COST_METRICS[name.slice(c.length + 1)] : void 0;
    if (base) return { ...base, counter: `${base.counter}.${c}`, label: `${c} ${base.label}`, component: c };
  }
  return void 0;
}
function metricOfCounter(counter) {
  const [base, component] = counter.split(".");
  const name = Object.entries(COST_METRICS).find(([, m]) => m.counter === base && !m.selects)?.[0];
  if (!name) return void 0;
  return component ? `${component}_${name}` : name;
}
function netCost(name, counters, window, ops, background) {
  const info = costMetric(name);
  if (!info || !(ops > 0)) return void 0;
  const perS = background?.per_s ?? {};
  const perReading = background?.per_reading ?? {};
  const selectors = (info.selects ?? []).map(parseSelector).filter((s) => !!s);
  const total = (of) => selectors.length ? selectors.reduce((n, s) => n + (selectedTotal(s, of) ?? 0), 0) : of[info.counter];
  const grown = total(counters);
  if (grown === void 0) return void 0;
  const net = grown - (total(perS) ?? 0) * window - (total(perReading) ?? 0);
  return Math.max(0, net) / ops * info.scale;
}
function costOf(before, after, ops, background, wanted = []) {
  const window = (after.at - before.at) / 1e3;
  const counters = {};
  const metrics = {};
  const components = new Set(Object.keys(before.counters).filter(isServerCounter).map(componentOf));
  for (const [name, end] of Object.entries(after.counters)) {
    if (isServerCounter(name)) {
      const start2 = before.counters[name] ?? (components.has(componentOf(name)) ? 0 : void 0);
      if (start2 !== void 0 && end > start2) counters[name] = end - start2;
      continue;
    }
    const start = before.counters[name];
    if (start === void 0 || end < start) continue;
    counters[name] = end - start;
    const metric = metricOfCounter(name);
    const value = metric ? netCost(metric, counters, window, ops, background) : void 0;
    if (metric && value !== void 0) metrics[metric] = value;
  }
  if (ops > 0)
    for (const name of wanted) {
      const info = costMetric(name);
      const selectors = (info?.selects ?? []).map(parseSelector).filter((s) => !!s);
      if (!info || !selectors.length) continue;
      const read2 = selectors.some(
        (s) => selectedTotal(s, after.counters) !== void 0 || s.component !== "" && components.has(s.component)
      );
      if (!read2) continue;
      const value = netCost(name, counters, window, ops, background);
      if (value !== void 0) metrics[name] = value;
    }
  return {
    metrics,
    record: {
      window_s: Math.round(window * 1e3) / 1e3,
      ops: Math.round(ops * 1e3) / 1e3,
      counters,
      ...background && Object.keys(background.per_s).length ? { idle_per_s: background.per_s } : {},
      ...background && Object.keys(background.per_reading).length ? { reading_cost: background.per_reading } : {}
    }
  };
}
var componentOf = (key) => key.slice(0, key.indexOf(":"));
function idleRates(first, next, last) {
  const t01 = (next.at - first.at) / 1e3;
  const t12 = (last.at - next.at) / 1e3;
  const out = { per_s: {}, per_reading: {} };
  if (!(t12 > t01) || t01 < 0) return out;
  for (const [name, end] of Object.entries(last.counters)) {
    const a = first.counters[name];
    const b = next.counters[name] ?? a;
    if (a === void 0 || b === void 0 || b < a || end < b) continue;
    const d01 = b - a;
    const d12 = end - b;
    const perS = Math.max(0, (d12 - d01) / (t12 - t01));
    const perReading = Math.max(0, d01 - perS * t01);
    if (perS > 0 || !isServerCounter(name)) out.per_s[name] = perS;
    if (perReading > 0) out.per_reading[name] = perReading;
  }
  return out;
}
function treeCpuSeconds(roots) {
  if (!roots.length) return void 0;
  let ticks2 = 0;
  let seen = 0;
  for (const pid of treeOf(roots, parents())) {
    const f = procStat(pid);
    if (!f) continue;
    ticks2 += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    seen++;
  }
  return seen ? ticks2 / clockTicks() : void 0;
}
function promTotals(text, wanted) {
  const want = new Set(wanted);
  const out = {};
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m || !want.has(m[1])) continue;
    const v = Number(m[3]);
    if (Number.isFinite(v)) out[m[1]] = (out[m[1]] ?? 0) + v;
  }
  return out;
}
function goServerCounters(text) {
  const t = promTotals(text, [
    "process_cpu_seconds_total",
    "go_memstats_alloc_bytes_total",
    "go_memstats_mallocs_total",
    "go_gc_duration_seconds_count"
  ]);
  const out = {};
  if (t.process_cpu_seconds_total !== void 0) out.cpu_s = t.process_cpu_seconds_total;
  if (t.go_memstats_alloc_bytes_total !== void 0) out.alloc_bytes = t.go_memstats_alloc_bytes_total;
  if (t.go_memstats_mallocs_total !== void 0) out.mallocs = t.go_memstats_mallocs_total;
  if (t.go_gc_duration_seconds_count !== void 0) out.gc_cycles = t.go_gc_duration_seconds_count;
  return out;
}

// action/src/targets/local/respawn.ts
async function respawnOnItsPort(respawn) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await respawn();
    } catch (e) {
      if (attempt >= PORT_TRIES || !portTaken(e)) throw e;
      await new Promise((r) => setTimeout(r, attempt * 1e3));
    }
  }
}
function respawner(spawn2, settle, stopSignal) {
  return async () => {
    const next = spawn2();
    try {
      await settle(next);
    } catch (e) {
      await next.stop(stopSignal, 3e4).catch(() => {
      });
      throw e;
    }
    return next;
  };
}

// action/src/targets/local/startup.ts
import { readFile as readFile4 } from "node:fs/promises";
import { basename as basename3, join as join6 } from "node:path";
function words(line) {
  return line.replace(/^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?( \w+)? ?(\[\d+\] ?)?(\d+ )?/, "").trim();
}
async function serverErrors(files, max = 6) {
  const out = [];
  for (const file of files) {
    let text = "";
    try {
      text = await readFile4(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n")) {
      if (!/\[ERROR\]|\bFATAL:|\bERROR:|\bPANIC:/.test(line) && !/Address already in use/i.test(line))
        continue;
      const said = words(line);
      if (said && !out.includes(said)) out.push(said);
    }
  }
  return out.slice(0, max);
}
async function waitReady(what, server, probe, timeoutMs = 6e4) {
  const deadline = Date.now() + timeoutMs;
  const exitedError = async () => {
    const how = await server.exited;
    return new StartupError(`${what} exited during startup (code ${how.code}, signal ${how.signal})`);
  };
  while (Date.now() < deadline) {
    if (!server.isAlive()) throw await exitedError();
    const answered = await Promise.race([probe(), server.exited.then(() => "exited")]);
    if (answered === "exited") throw await exitedError();
    if (answered) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new StartupError(`${what} did not accept connections within ${timeoutMs / 1e3}s`);
}
var StartupError = class extends RunError {
};
async function startupFailure(e, o) {
  if (!(e instanceof StartupError)) return e;
  const kept = o.logs.map((l) => join6(o.logDir, basename3(l)));
  const said = await serverErrors(kept);
  const norm = (s) => s.toLowerCase().replace(/-/g, "_");
  const refused = Object.keys(o.config).filter((k) => said.some((l) => norm(l).includes(norm(k))));
  const head = refused.length ? `target.config: ${o.what} refused ${refused.map((k) => `${k}=${JSON.stringify(o.config[k])}`).join(", ")}` : e.message;
  const quoted3 = said.length ? said.map((l) => `
  ${l}`).join("") : " (its logs say nothing of why)";
  return new RunError(
    `${head}${refused.length ? ` (${e.message})` : ""}; the server said:${quoted3}
server logs kept in ${o.logDir}`
  );
}

// action/src/targets/local/server.ts
async function makeWorkDir(kind) {
  return mkdtemp(join7(dataRoot(), `tiperf-${kind}-`));
}
var dataRoot = () => setting("TIPERF_DATA_DIR") || tmpdir();
var FS_TYPES = {
  61267: "ext4",
  16914836: "tmpfs",
  1481003842: "xfs",
  2435016766: "btrfs",
  2035054128: "overlayfs",
  801189825: "zfs"
};
function dataDirFacts(dir) {
  try {
    const st = statfsSync2(dir);
    return {
      path: dir,
      filesystem: FS_TYPES[st.type] ?? `0x${st.type.toString(16)}`,
      free_bytes: st.bavail * st.bsize
    };
  } catch {
    return { path: dir, filesystem: "unknown", free_bytes: 0 };
  }
}
function lifecycle(opts) {
  let stopping = false;
  let restarting = false;
  let stopped;
  let server = opts.server;
  const diedOf = (s) => s.exited.then(
    (how) => stopping || restarting ? new Promise(() => {
    }) : `${opts.what} (pid ${s.pid}) exited unexpectedly (code ${how.code}, signal ${how.signal})`
  );
  let died = diedOf(server);
  const recordOf = (s) => record({
    resource: "server",
    what: opts.what,
    pid: s.pid,
    path: opts.workDir,
    signal: opts.stopSignal,
    logs: opts.logs,
    log_dir: opts.logDir
  }).catch(() => async () => {
  });
  let forget = recordOf(server);
  const stop = () => {
    stopping = true;
    stopped ??= (async () => {
      unregister();
      try {
        await server.stop(opts.stopSignal, 3e4);
        await keepLogs(opts.logs, opts.logDir);
      } finally {
        await opts.beforeRemove?.().catch(() => {
        });
        await rm4(opts.workDir, { recursive: true, force: true });
        await (await forget)();
      }
    })();
    return stopped;
  };
  const restart = async (respawn) => {
    if (stopping) throw new RunError(`${opts.what} is being stopped: no restart`);
    restarting = true;
    try {
      await server.stop(opts.stopSignal, 3e4);
      await opts.beforeRemove?.().catch(() => {
      });
      server = await respawnOnItsPort(respawn);
      const next = recordOf(server);
      await (await forget)();
      forget = next;
      died = diedOf(server);
    } finally {
      restarting = false;
    }
  };
  const unregister = onTeardown(`stop ${opts.what}`, stop);
  return {
    stop,
    restart,
    get died() {
      return died;
    },
    get server() {
      return server;
    }
  };
}
async function settleServer(o) {
  await waitReady(o.what, o.server, async () => (await o.query("SELECT 1")).code === 0);
  const sqlOf = (job, own) => sqlText(o.steps?.take(job)) ?? own;
  const version = (await o.query(sqlOf("version", o.versionSql))).stdout.trim();
  const effectiveConfig = {};
  for (const key of /* @__PURE__ */ new Set([...Object.keys(o.spec.config), ...o.readBack ?? []])) {
    const r = await o.query(sqlOf({ setting: key }, o.settingSql(key)));
    if (r.code === 0) effectiveConfig[key] = r.stdout.trim();
  }
  const res = o.spec.resources;
  if (res?.cpu_quota !== void 0) {
    o.steps?.take("cgroup", o.server.pid);
    o.onCgroup((await applyResources(o.server.pid, res.cpu_quota, o.what.toLowerCase())).remove);
  }
  if (res?.cpus !== void 0) {
    o.steps?.take("pin", o.server.pid);
    await pinProcesses(await processTree(o.server.pid), res.cpus, "target.resources.cpus");
  }
  return { version, effectiveConfig };
}
function localTarget(o) {
  const { life } = o;
  return {
    owner: "tiperf",
    kind: o.kind,
    version: o.version,
    connection: {
      protocol: o.protocol,
      endpoints: [{ host: "127.0.0.1", port: o.port }],
      user: o.user,
      password: ""
    },
    get pids() {
      return [life.server.pid];
    },
    state: () => `${o.kind} server (pid ${life.server.pid}) is ${processState(life.server.pid)}`,
    createDatabase: o.createDatabase,
    settings: o.spec.config,
    effectiveConfig: o.effectiveConfig,
    ...o.spec.resources ? { resources: resourcesText(o.spec.resources) } : {},
    details: { data_dir: dataDirFacts(o.workDir) },
    get died() {
      return life.died;
    },
    stop: life.stop,
    costCounters: async () => {
      const own = await o.counters().catch(() => ({}));
      const cpu = treeCpuSeconds([life.server.pid]);
      return cpu === void 0 ? own : { ...own, cpu_s: cpu };
    },
    restart: async () => {
      const before = life.server.pid;
      o.opts.steps?.take("restart", before);
      await life.restart(o.respawn);
      return `${o.kind} pid ${before} \u2192 ${life.server.pid}`;
    },
    activate: { cannot: "is a server of one variant's own: there is nothing to bring in" },
    watch: { cannot: "is watched by its process: its death fails the run" },
    afterLoad: { cannot: "needs nothing after a load" },
    cpuProfiles: { cannot: "serves no CPU profile (pprof is TiDB's and TiKV's)" },
    serverHosts: { cannot: "runs on this machine: its use is sampled from /proc here" }
  };
}
function checkDatabaseName(name) {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new RunError(`bad database name ${JSON.stringify(name)}`);
  return name;
}
function resourcesText(r) {
  return {
    ...r.cpu_quota !== void 0 ? { cpu_quota: `${Math.round(r.cpu_quota * 1e3) / 10}%` } : {},
    ...r.cpus !== void 0 ? { cpus: r.cpus } : {}
  };
}
async function installDataDir(o) {
  const r = await runCommand(o.command[0], o.command.slice(1), {
    runAs: o.runAs,
    timeoutMs: 12e4
  });
  if (r.code === 0) return;
  o.removeWorkDir();
  await rm4(o.workDir, { recursive: true, force: true });
  throw new RunError(`${o.what} failed (exit ${r.code}):
${(r.stderr || r.stdout).slice(-2e3)}`);
}
async function runPrivateServer(o) {
  const spawnServer = () => startServerProcess(o.command[0], o.command.slice(1), {
    logFile: o.outFile,
    cwd: o.workDir,
    ...o.runAs ? { runAs: o.runAs } : {}
  });
  const server = spawnServer();
  o.handOver();
  let removeCgroup;
  const life = lifecycle({
    what: o.what,
    server,
    workDir: o.workDir,
    logs: o.logs,
    logDir: o.opts.logDir,
    stopSignal: o.stopSignal,
    beforeRemove: async () => removeCgroup?.()
  });
  const settle = (s) => settleServer({
    what: o.what,
    spec: o.spec,
    server: s,
    query: o.query,
    versionSql: o.versionSql,
    settingSql: o.settingSql,
    readBack: o.opts.readBack,
    steps: o.opts.steps,
    onCgroup: (remove) => {
      removeCgroup = remove;
    }
  });
  try {
    const { version, effectiveConfig } = await settle(server);
    o.opts.log(
      `target: ${o.what} ${version} on 127.0.0.1:${o.port} (pid ${server.pid}, datadir ${o.dataDir})`
    );
    return localTarget({
      ...o,
      life,
      respawn: respawner(spawnServer, settle, o.stopSignal),
      version,
      effectiveConfig
    });
  } catch (e) {
    await life.stop();
    throw await startupFailure(e, {
      what: o.what,
      logs: o.logs,
      logDir: o.opts.logDir,
      config: o.spec.config
    });
  }
}

// action/src/targets/local/kind.ts
async function variantProfiles(input) {
  const named = input.variants.map((v) => input.profile ?? v.target.profile);
  const profiles = await Promise.all(
    named.map(
      (file, i) => file === void 0 ? void 0 : loadEndpointProfile(file, profileKey(input, i))
    )
  );
  return profiles.map((p, i) => p && { file: named[i], profile: p, provider: p.provider });
}
function endpointVariants(input, profiles) {
  const at2 = (name) => variantAt(input.variants.length, name);
  const refusals = [];
  const variants = [];
  for (const [i, v] of input.variants.entries()) {
    const { file, profile } = profiles[i];
    const t = v.target;
    if (Object.keys(t.config).length)
      refusals.push(
        `${input.file}: ${at2(v.name)}target.config: ${file} is an existing server (provider endpoint), which tiperf never reconfigures; compare two endpoints configured as you want them, or a stored baseline (tiperf diff)`
      );
    if (t.resources)
      refusals.push(
        `${input.file}: ${at2(v.name)}target.resources limits a private server tiperf starts; ${file} is an existing server (provider endpoint): remove it`
      );
    variants.push({ name: v.name, target: v.target, file, profile });
  }
  return { variants, refusals };
}
var LOW_ROOM_BYTES = 2 * 2 ** 30;
function localWarnings(input, cores) {
  const out = [];
  const room = dataDirFacts(dataRoot());
  if (room.free_bytes > 0 && room.free_bytes < LOW_ROOM_BYTES)
    out.push(
      `the servers' data go to ${room.path} (${room.filesystem}), which has ${(room.free_bytes / 2 ** 30).toFixed(1)} GiB free: set TIPERF_DATA_DIR to a directory on a larger disk`
    );
  const at2 = (name) => variantAt(input.variants.length, name);
  for (const v of input.variants) {
    const t = v.target;
    const quota = t.resources?.cpu_quota;
    if (quota !== void 0 && quota > cores)
      out.push(
        `${at2(v.name)}target.resources.cpu_quota ${Math.round(quota * 100)}% is more than this machine's ${cores} CPU(s) (${cores * 100}%): the quota cannot bind`
      );
  }
  return out;
}
function localRefusals(input) {
  const out = [];
  const at2 = (name) => variantAt(input.variants.length, name);
  for (const v of input.variants) {
    const t = v.target;
    const conn = Object.entries(t.config).find(([k]) => k.replace(/-/g, "_") === "max_connections");
    if (conn && Number(conn[1]) < input.maxConnections + 1)
      out.push(
        `${input.file}: ${at2(v.name)}target.config.max_connections is ${conn[1]}, below the largest thread count ${input.maxConnections} (+1 for tiperf's own connection): cells with more threads cannot connect; raise it to at least ${input.maxConnections + 1}, or lower the thread counts`
      );
  }
  return out;
}
var localKey = {
  install: (v) => `install:${v.name}`,
  server: (v) => `server:${v.name}`,
  version: (v) => `version:${v.name}`,
  setting: (v, key) => `setting:${v.name}:${key}`,
  cgroup: (v) => `cgroup:${v.name}`,
  pin: (v) => `pin:${v.name}`,
  restart: (v) => `restart:${v.name}`
};
var keyOfJob = (v, job) => typeof job === "object" ? localKey.setting(v, job.setting) : localKey[job](v);
function startSteps(plan, variant, executed) {
  let fill = (a) => a;
  return {
    at({ workDir, port: port2 }) {
      fill = (a) => a.replaceAll(workDirOf(variant), workDir).replaceAll(PORT_TEXT, String(port2));
    },
    take(job, pid) {
      const step = filledStep(
        stepOf(plan.steps, keyOfJob({ name: variant }, job)),
        (a) => pid === void 0 ? fill(a) : fill(a).replaceAll(PID_TEXT, String(pid))
      );
      executed.push({ ...step, variant });
      return step;
    }
  };
}
var PID_TEXT = "<pid>";
var workDirOf = (variant) => `<workdir of ${variant}>`;
function recordSteps(s, input, v) {
  const t = v.target;
  const record2 = (sql, about, key) => ({
    key,
    phase: "record",
    variant: v.name,
    where: "runner",
    run: { sql },
    about: `variant ${v.name}: ${about}`
  });
  const steps = [record2(s.versionSql, "the server's version, recorded", localKey.version(v))];
  for (const key of Object.keys(t.config))
    steps.push(record2(s.settingSql(key), `target.config.${key}, read back`, localKey.setting(v, key)));
  const others = input.variants.filter((o) => o.name !== v.name);
  for (const key of new Set(others.flatMap((o) => Object.keys(o.target.config))))
    if (!(key in t.config))
      steps.push(
        record2(
          s.settingSql(key),
          `${key} as the server has it (another variant sets it), read back`,
          localKey.setting(v, key)
        )
      );
  return steps;
}
function localSteps(s, input) {
  const steps = [];
  for (const v of input.variants) {
    const t = v.target;
    const c = s.commands({
      workDir: workDirOf(v.name),
      port: PORT_TEXT,
      maxConnections: input.maxConnections,
      config: t.config
    });
    const add = (phase, run, about, key) => steps.push({
      ...key ? { key } : {},
      phase,
      variant: v.name,
      where: "runner",
      run,
      ...about ? { about } : {}
    });
    add("start", { command: c.install }, `variant ${v.name}: a fresh data directory`, localKey.install(v));
    add(
      "start",
      { command: c.server },
      `variant ${v.name}: a port on 127.0.0.1 picked at start; runs until teardown`,
      localKey.server(v)
    );
    steps.push(...recordSteps(s, input, v));
    if (t.resources?.cpu_quota !== void 0)
      add(
        "start",
        { command: ["write", `<cgroup>/cpu.max`, cpuMaxText(t.resources.cpu_quota)] },
        `variant ${v.name}: the server's processes in a cgroup of their own, ${Math.round(t.resources.cpu_quota * 100)}% of a CPU`,
        localKey.cgroup(v)
      );
    if (t.resources?.cpus !== void 0)
      add(
        "start",
        { command: ["taskset", "-a", "-p", "-c", t.resources.cpus, PID_TEXT] },
        `variant ${v.name}: the server's processes pinned to CPU ${t.resources.cpus}`,
        localKey.pin(v)
      );
    if (input.blocks > 1)
      add(
        "restart",
        // two shell lines: the stop, then the server's command line as one quoted line
        { command: [`kill -${s.stopSignal.replace("SIG", "")} ${PID_TEXT}`, shellCommand(c.server)] },
        `before each block after the first: a fresh process on the same data`,
        localKey.restart(v)
      );
  }
  for (const v of input.variants)
    steps.push({
      phase: "teardown",
      variant: v.name,
      where: "runner",
      run: {
        command: [
          `kill -${s.stopSignal.replace("SIG", "")} <pid of ${v.name}>`,
          `rm -rf <workdir of ${v.name}>`
        ]
      },
      about: "always: success, failure, cancel, SIGTERM (logs kept in <run>/server/); `tiperf reap` if tiperf was killed"
    });
  return steps;
}
function privateServers(s, plan, log) {
  const specs = new Map(plan.variants.map((v) => [v.name, v.target]));
  const stops = [];
  const deployment = {
    executed: [],
    async target(variant, opts) {
      const spec = specs.get(variant);
      if (!spec) throw new Error(`no variant ${variant} in this plan`);
      const t = await startOnFreePort(
        () => s.start(spec, { ...opts, steps: startSteps(plan, variant, deployment.executed) }),
        (line) => opts.log(`${variant}: ${line}`)
      );
      stops.push(t.stop.bind(t));
      return t;
    },
    async stop() {
      for (const stop of stops.splice(0).reverse())
        await stop().catch((e) => log(`teardown: ${e.message}`));
    }
  };
  return deployment;
}
function localKind(s) {
  return {
    name: s.name,
    schema: localTargetSchema(s.name),
    keyNames: ["kind", "config", "resources", "profile"],
    // config: read back (SELECT @@GLOBAL / SHOW); cpu_quota: its throttling; profile: the endpoint recorded
    shown: ["config", "resources.cpu_quota", "profile"],
    needs(target, o) {
      const t = target;
      if (o.borrowed) return s.needs().filter((n) => n.client);
      return [
        ...s.needs(),
        ...t.resources?.cpus !== void 0 ? [
          {
            found: anyTool(["taskset"]),
            what: "taskset (target.resources.cpus)",
            install: "the Debian package util-linux"
          }
        ] : []
      ];
    },
    async plan(input) {
      const profiles = await variantProfiles(input);
      const way = WAYS[providerOf(input, profiles, s.endpoint.title)];
      return way(s, input, profiles);
    },
    reapers: { ...LOCAL_REAPERS, ...ENDPOINT_REAPERS },
    costMetrics: ["cpu_ms_per_op", ...s.costMetrics]
  };
}
var WAYS = {
  [PRIVATE_PROVIDER]: (s, input) => privatePlan(s, input),
  [ENDPOINT_PROVIDER]: (s, input, profiles) => {
    const { variants, refusals } = endpointVariants(input, profiles);
    return planEndpoints(s.endpoint, input, variants, refusals);
  }
};
function privatePlan(s, input) {
  const plan = {
    kind: s.name,
    profile: `local-${s.name}`,
    variants: input.variants,
    about: [
      `target: a private ${s.title} server per variant on 127.0.0.1 (own data directory, port and socket; stopped by PID)`
    ],
    files: {},
    steps: localSteps(s, input),
    ...s.databaseSql ? { databaseSql: s.databaseSql } : {},
    connection: () => ({
      protocol: s.protocol,
      endpoints: [{ host: "127.0.0.1", port: PORT_AT_START }],
      user: s.user,
      password: ""
    }),
    dataOf: (variant) => variant,
    remoteLoad: false,
    ownership: "owned",
    localServers: true,
    overhead: { setupS: 5 * input.variants.length, switchS: 0, restartS: 5 },
    switching: "none",
    warnings: localWarnings(input, input.cores ?? cpus3().length),
    refusals: localRefusals(input),
    open: async (o) => privateServers(s, plan, o.log)
  };
  return plan;
}

// action/src/targets/mariadb/counters.ts
var MARIADB_COUNTERS_SQL = "SHOW GLOBAL STATUS";
var GAUGES = /^(Acl_|Max_used_|Max_memory_used|Memory_used|Open_|Threads_(cached|connected|running)|Uptime|Innodb_buffer_pool_(pages_(data|dirty|free|misc|old|total)|bytes_)|Innodb_checkpoint_|Innodb_data_pending_|Innodb_history_list_length|Innodb_ibuf_(free_list|segment_size|size)|Innodb_mem_|Innodb_page_size|Innodb_row_lock_current_waits|Innodb_num_open_files|Innodb_available_undo_logs|Innodb_onlineddl_(rowlog_pct_used|pct_progress)|Innodb_encryption_rotation_estimated_iops|Key_blocks_(not_flushed|unused|used|warm)|Qcache_(free_|queries_in_cache|total_blocks)|Rpl_semi_sync_(master_(clients|status|wait_sessions|net_avg_wait_time|tx_avg_wait_time)|slave_status)|Slave_(open_temp_tables|running|heartbeat_period)|Slaves_|Ssl_(ctx_|default_timeout|verify_|session_cache_(mode|size)|used_session_cache_entries)|Tc_log_page_size|Delayed_insert_threads|Last_query_cost|Binlog_snapshot_position|Innodb_lsn_|Innodb_buffer_pool_load_incomplete|wsrep_)/i;
function mariadbCounters(tsv) {
  const out = {};
  for (const line of tsv.split("\n")) {
    const [name, value] = line.trim().split(/\t/);
    if (!name || value === void 0 || !/^-?\d+(\.\d+)?$/.test(value)) continue;
    const v = Number(value);
    const n = name.toLowerCase();
    if (n.startsWith("handler_read")) out.handler_reads = (out.handler_reads ?? 0) + v;
    else if (n === "innodb_buffer_pool_read_requests") out[n] = v;
    if (!GAUGES.test(name)) out[counterKey("mariadb", name)] = v;
  }
  return out;
}

// action/src/targets/mariadb/server.ts
import { existsSync as existsSync4 } from "node:fs";
import { mkdir as mkdir5, rm as rm5 } from "node:fs/promises";
import { join as join8 } from "node:path";
var isRoot = () => process.getuid?.() === 0;
var MARIADB_PROGRAMS = {
  server: ["/usr/sbin/mariadbd", "/usr/sbin/mysqld"],
  installDb: ["mariadb-install-db", "mysql_install_db"],
  client: MYSQL_CLIENTS
};
var SERVER = () => firstTool(MARIADB_PROGRAMS.server);
var INSTALL_DB = () => firstTool(MARIADB_PROGRAMS.installDb);
var CLIENT = () => firstTool(MARIADB_PROGRAMS.client);
var asVariable = (key) => key.replace(/-/g, "_");
function settingArgs(config) {
  return Object.entries(config).map(([k, v]) => `--${k}=${typeof v === "boolean" ? v ? "ON" : "OFF" : v}`);
}
function mariadbCommands(o) {
  const dataDir = join8(o.workDir, "data");
  const tmpDir = join8(o.workDir, "tmp");
  return {
    install: [
      INSTALL_DB(),
      "--no-defaults",
      `--datadir=${dataDir}`,
      `--tmpdir=${tmpDir}`,
      "--auth-root-authentication-method=normal",
      "--skip-test-db",
      ...isRoot() ? ["--user=root"] : []
    ],
    server: [
      SERVER(),
      "--no-defaults",
      `--datadir=${dataDir}`,
      `--tmpdir=${tmpDir}`,
      `--port=${o.port}`,
      "--bind-address=127.0.0.1",
      `--socket=${join8(o.workDir, "mysqld.sock")}`,
      `--pid-file=${join8(o.workDir, "mysqld.pid")}`,
      `--log-error=${join8(o.workDir, "mariadb-error.log")}`,
      "--skip-name-resolve",
      `--max-connections=${Math.max(151, o.maxConnections + 20)}`,
      ...isRoot() ? ["--user=root"] : [],
      // The spec's settings come last so they win over tiperf's defaults.
      ...settingArgs(o.config)
    ]
  };
}
function mariadbClient(port2) {
  const sql = (query, timeoutMs = 3e4) => runCommand(
    CLIENT(),
    ["--no-defaults", "-h", "127.0.0.1", "-P", String(port2), "-u", "root", "-N", "-B", "-e", query],
    { timeoutMs }
  );
  return {
    sql,
    counters: async () => {
      const r = await sql(MARIADB_COUNTERS_SQL, COUNTERS_TIMEOUT_MS);
      return r.code === 0 ? mariadbCounters(r.stdout) : {};
    },
    createDatabase: async (name, statements) => {
      checkDatabaseName(name);
      for (const create of statements) {
        const r = await sql(create);
        if (r.code !== 0) throw new RunError(`MariaDB: cannot create database ${name}: ${r.stderr.trim()}`);
      }
    }
  };
}
var READ_BACK = {
  version: "SELECT VERSION()",
  setting: (key) => `SELECT @@GLOBAL.${asVariable(key)}`
};
async function startMariadb(spec, opts) {
  if (!existsSync4(SERVER())) {
    throw new RunError(
      `target.kind mariadb: ${SERVER()} not found; install the Debian package mariadb-server`
    );
  }
  const workDir = await makeWorkDir("mariadb");
  const removeWorkDir = onTeardown(`remove ${workDir}`, () => rm5(workDir, { recursive: true, force: true }));
  const dataDir = join8(workDir, "data");
  const errorLog = join8(workDir, "mariadb-error.log");
  const installLog = join8(workDir, "mariadb-install-db.log");
  const logs = [errorLog, join8(workDir, "mariadbd.out"), installLog];
  await mkdir5(join8(workDir, "tmp"));
  const port2 = await privatePort();
  opts.steps?.at({ workDir, port: port2 });
  const commands = mariadbCommands({
    workDir,
    port: String(port2),
    maxConnections: opts.maxConnections,
    config: spec.config
  });
  await installDataDir({
    what: "mariadb-install-db",
    command: commandOf(opts.steps?.take("install")) ?? commands.install,
    workDir,
    removeWorkDir
  });
  const { sql, counters, createDatabase: createDatabase2 } = mariadbClient(port2);
  return runPrivateServer({
    what: "MariaDB",
    kind: "mariadb",
    protocol: "mysql",
    user: "root",
    spec,
    opts,
    workDir,
    dataDir,
    port: port2,
    command: commandOf(opts.steps?.take("server")) ?? commands.server,
    outFile: join8(workDir, "mariadbd.out"),
    logs,
    stopSignal: "SIGTERM",
    handOver: removeWorkDir,
    query: sql,
    versionSql: READ_BACK.version,
    settingSql: READ_BACK.setting,
    counters,
    createDatabase: createDatabase2
  });
}

// action/src/targets/mariadb/index.ts
var mariadb = localKind({
  name: "mariadb",
  title: "MariaDB",
  protocol: "mysql",
  user: "root",
  commands: mariadbCommands,
  versionSql: READ_BACK.version,
  settingSql: READ_BACK.setting,
  endpoint: {
    kind: "mariadb",
    title: "MariaDB",
    protocol: "mysql",
    versionSql: READ_BACK.version,
    // the server's CPU is not readable from here: its storage engine's reads are
    counters: {
      metrics: () => [
        "handler_reads_per_op",
        "bp_reads_per_op",
        "statements_per_op",
        "rows_read_per_op",
        "tmp_tables_per_op"
      ],
      source: () => "SHOW GLOBAL STATUS (every counter; the cost metrics: Handler_read_*, Innodb_buffer_pool_read_requests)",
      read: async (sql) => mariadbCounters(await sql(MARIADB_COUNTERS_SQL))
    }
  },
  stopSignal: "SIGTERM",
  needs: () => [
    {
      found: anyTool(MARIADB_PROGRAMS.server),
      what: "the MariaDB server (target.kind mariadb)",
      install: "the Debian package mariadb-server"
    },
    {
      found: anyTool(MARIADB_PROGRAMS.installDb),
      what: "mariadb-install-db (target.kind mariadb)",
      install: "the Debian package mariadb-server"
    },
    {
      found: anyTool(MARIADB_PROGRAMS.client),
      what: "the mariadb client (target.kind mariadb)",
      install: "the Debian package mariadb-client",
      client: true
    }
  ],
  costMetrics: [
    "handler_reads_per_op",
    "bp_reads_per_op",
    "statements_per_op",
    "rows_read_per_op",
    "tmp_tables_per_op"
  ],
  start: startMariadb
});

// action/src/targets/postgres/index.ts
import { join as join10 } from "node:path";

// action/src/targets/postgres/counters.ts
var NUMBER = "'^-?[0-9]+(\\.[0-9]+)?$'";
var NOT_COUNTERS = {
  database: ["datid", "numbackends"],
  tables: ["relid", "n_live_tup", "n_dead_tup", "n_mod_since_analyze", "n_ins_since_vacuum"],
  indexes: ["relid", "indexrelid"],
  statements: [
    "userid",
    "dbid",
    "queryid",
    "toplevel",
    "min_exec_time",
    "max_exec_time",
    "mean_exec_time",
    "stddev_exec_time",
    "min_plan_time",
    "max_plan_time",
    "mean_plan_time",
    "stddev_plan_time"
  ]
};
var list = (names) => names.map((n) => `'${n}'`).join(", ");
var POSTGRES_COUNTERS_SQL = [
  `SELECT 'pg_stat_database.' || e.k || '{datname="' || d.datname || '"}', e.v FROM pg_stat_database d, jsonb_each_text(to_jsonb(d)) AS e(k, v) WHERE d.datname = current_database() AND e.v ~ ${NUMBER} AND e.k NOT IN (${list(NOT_COUNTERS.database)})`,
  `SELECT 'pg_stat_user_tables.' || e.k || '{table="' || t.schemaname || '.' || t.relname || '"}', e.v FROM pg_stat_user_tables t, jsonb_each_text(to_jsonb(t)) AS e(k, v) WHERE e.v ~ ${NUMBER} AND e.k NOT IN (${list(NOT_COUNTERS.tables)})`,
  `SELECT 'pg_stat_user_indexes.' || e.k || '{index="' || i.schemaname || '.' || i.indexrelname || '"}', e.v FROM pg_stat_user_indexes i, jsonb_each_text(to_jsonb(i)) AS e(k, v) WHERE e.v ~ ${NUMBER} AND e.k NOT IN (${list(NOT_COUNTERS.indexes)})`
].join(" UNION ALL ");
var POSTGRES_HAS_STATEMENTS_SQL = "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements')";
var POSTGRES_STATEMENTS_SQL = `SELECT 'pg_stat_statements.' || e.k, sum(e.v::numeric) FROM pg_stat_statements s, jsonb_each_text(to_jsonb(s)) AS e(k, v) WHERE s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND e.v ~ ${NUMBER} AND e.k NOT IN (${list(NOT_COUNTERS.statements)}) GROUP BY e.k`;
var NAMED = ["tup_returned", "tup_fetched", "blks_hit"];
function postgresCounters(tsv) {
  const out = {};
  for (const line of tsv.split("\n")) {
    const m = /^(.+)[\t|](-?\d+(?:\.\d+)?)$/.exec(line.trim());
    if (!m) continue;
    const series = m[1];
    const v = Number(m[2]);
    out[counterKey("postgres", series)] = v;
    const named = /^pg_stat_database\.([a-z_]+)\{/.exec(series)?.[1];
    if (named && NAMED.includes(named)) out[named] = (out[named] ?? 0) + v;
  }
  return out;
}
async function readPostgresCounters(sql) {
  const views = await sql(POSTGRES_COUNTERS_SQL);
  const has = (await sql(POSTGRES_HAS_STATEMENTS_SQL).catch(() => "f")).trim() === "t";
  const statements = has ? await sql(POSTGRES_STATEMENTS_SQL).catch(() => "") : "";
  return postgresCounters(`${views}
${statements}`);
}

// action/src/targets/postgres/server.ts
import { execFileSync as execFileSync2 } from "node:child_process";
import { existsSync as existsSync5, readdirSync as readdirSync2 } from "node:fs";
import { chown, rm as rm6 } from "node:fs/promises";
import { join as join9 } from "node:path";
function postgresBinDirs() {
  const base = "/usr/lib/postgresql";
  return existsSync5(base) ? readdirSync2(base).filter((v) => existsSync5(join9(base, v, "bin", "postgres"))).sort((a, b) => Number(b) - Number(a)).map((v) => join9(base, v, "bin")) : [];
}
function binDir() {
  const [newest] = postgresBinDirs();
  if (newest === void 0) {
    throw new RunError(
      "target.kind postgres: no server under /usr/lib/postgresql/*/bin; install the Debian package postgresql"
    );
  }
  return newest;
}
function runAs() {
  if (process.getuid?.() !== 0) return void 0;
  try {
    const uid = Number(execFileSync2("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync2("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    throw new RunError(
      "target.kind postgres: running as root needs a `postgres` system user (Debian's postgresql package creates it)"
    );
  }
}
function settingArgs2(config) {
  return Object.entries(config).flatMap(([k, v]) => [
    "-c",
    `${k}=${typeof v === "boolean" ? v ? "on" : "off" : v}`
  ]);
}
function postgresCommands(o) {
  const dataDir = join9(o.workDir, "data");
  return {
    install: [
      join9(o.bin, "initdb"),
      "-D",
      dataDir,
      "--auth=trust",
      "-U",
      "postgres",
      "-E",
      "UTF8",
      "--no-sync",
      "--no-instructions"
    ],
    server: [
      join9(o.bin, "postgres"),
      "-D",
      dataDir,
      "-p",
      o.port,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `unix_socket_directories=${o.workDir}`,
      "-c",
      `max_connections=${Math.max(100, o.maxConnections + 20)}`,
      // The spec's settings come last so they win over tiperf's defaults.
      ...settingArgs2(o.config)
    ]
  };
}
function postgresClient(port2) {
  let runDatabase2 = "postgres";
  const psql = (query, db = "postgres", timeoutMs = 3e4) => runCommand(
    "psql",
    ["-X", "-h", "127.0.0.1", "-p", String(port2), "-U", "postgres", "-d", db, "-Atc", query],
    { timeoutMs }
  );
  return {
    psql,
    counters: () => readPostgresCounters(async (query) => {
      const r = await psql(query, runDatabase2, COUNTERS_TIMEOUT_MS);
      if (r.code !== 0) throw new RunError(`PostgreSQL: counters not read: ${r.stderr.trim()}`);
      return r.stdout;
    }).catch(() => ({})),
    // the plan's two statements (postgresDatabaseSql): the catalogue asked, the database created if absent
    createDatabase: async (name, statements) => {
      runDatabase2 = checkDatabaseName(name);
      const [ask, create] = statements;
      if (ask === void 0 || create === void 0)
        throw new RunError(
          `PostgreSQL: database ${name}: the plan's two statements expected, got ${statements.length}`
        );
      const exists = await psql(ask);
      if (exists.code === 0 && exists.stdout.trim() === "1") return;
      const r = await psql(create);
      if (r.code !== 0) throw new RunError(`PostgreSQL: cannot create database ${name}: ${r.stderr.trim()}`);
    }
  };
}
var postgresDatabaseSql = (name) => [
  `SELECT 1 FROM pg_database WHERE datname = '${name}'`,
  createDatabase(name, { ifAbsent: false })
];
var READ_BACK2 = {
  version: "SHOW server_version",
  setting: (key) => `SELECT current_setting('${key.replace(/'/g, "")}')`
};
async function startPostgres(spec, opts) {
  const bin = binDir();
  const user = runAs();
  const workDir = await makeWorkDir("postgres");
  const removeWorkDir = onTeardown(`remove ${workDir}`, () => rm6(workDir, { recursive: true, force: true }));
  if (user) await chown(workDir, user.uid, user.gid);
  const dataDir = join9(workDir, "data");
  const serverLog = join9(workDir, "postgres.log");
  const logs = [serverLog];
  const port2 = await privatePort();
  opts.steps?.at({ workDir, port: port2 });
  const commands = postgresCommands({
    bin,
    workDir,
    port: String(port2),
    maxConnections: opts.maxConnections,
    config: spec.config
  });
  await installDataDir({
    what: "initdb",
    command: commandOf(opts.steps?.take("install")) ?? commands.install,
    workDir,
    removeWorkDir,
    runAs: user
  });
  const { psql, counters, createDatabase: createDatabase2 } = postgresClient(port2);
  return runPrivateServer({
    what: "PostgreSQL",
    kind: "postgres",
    protocol: "postgres",
    user: "postgres",
    spec,
    opts,
    workDir,
    dataDir,
    port: port2,
    command: commandOf(opts.steps?.take("server")) ?? commands.server,
    outFile: serverLog,
    logs,
    runAs: user,
    // SIGINT is PostgreSQL's "fast" shutdown: roll back clients, checkpoint, exit.
    stopSignal: "SIGINT",
    handOver: removeWorkDir,
    query: (q) => psql(q),
    versionSql: READ_BACK2.version,
    settingSql: READ_BACK2.setting,
    counters,
    createDatabase: createDatabase2
  });
}

// action/src/targets/postgres/index.ts
var postgres = localKind({
  name: "postgres",
  title: "PostgreSQL",
  protocol: "postgres",
  user: "postgres",
  commands: (o) => postgresCommands({ ...o, bin: postgresBinDirs()[0] ?? "/usr/lib/postgresql/<N>/bin" }),
  versionSql: READ_BACK2.version,
  settingSql: READ_BACK2.setting,
  databaseSql: postgresDatabaseSql,
  endpoint: {
    kind: "postgres",
    title: "PostgreSQL",
    protocol: "postgres",
    versionSql: READ_BACK2.version,
    // the run's own database only: other databases' clients stay out of its counters
    counters: {
      metrics: () => ["tup_returned_per_op", "tup_fetched_per_op", "blks_hit_per_op"],
      source: () => "pg_stat_database, pg_stat_user_tables and pg_stat_user_indexes of the run's database, and pg_stat_statements where loaded",
      read: (sql) => readPostgresCounters(sql)
    }
  },
  stopSignal: "SIGINT",
  needs: () => {
    const servers2 = postgresBinDirs().map((d) => join10(d, "postgres"));
    return [
      {
        found: anyTool(servers2.length ? servers2 : ["/usr/lib/postgresql/N/bin/postgres"]),
        what: "the PostgreSQL server (target.kind postgres)",
        install: "the Debian package postgresql"
      },
      {
        found: anyTool(["psql"]),
        what: "psql (target.kind postgres)",
        install: "the Debian package postgresql-client",
        client: true
      }
    ];
  },
  costMetrics: ["tup_returned_per_op", "tup_fetched_per_op", "blks_hit_per_op"],
  start: startPostgres
});

// action/src/cloud/plan.ts
function placeholderHosts(cloud, ask) {
  const hosts = {};
  for (const m of cloud.machines(ask)) hosts[m.role] = [...hosts[m.role] ?? [], m.name];
  return { hosts, bastion: "<load-1 public address>", identityFile: "<run>/cloud/id_rsa" };
}
function cloudPlanText(cloud, ask, estimate, tags, provisioned = false) {
  const s = ask.settings;
  const lines = [
    `cloud: ${cloud.where(ask)}, ttl ${s.ttl}, state ${s.backend ?? "file://<run>/cloud/state"}`,
    `resources Pulumi would create (stack tiperf-${ask.name}-<pr N, branch or local>):`
  ];
  for (const r of cloud.resources(ask))
    lines.push(`  ${String(r.count).padStart(2)} \xD7 ${r.type} ${r.name}${r.about ? `    # ${r.about}` : ""}`);
  lines.push("tags on every resource (the provider's default tags; volumes get them too):");
  for (const [k, v] of Object.entries(tagsOf(tags))) lines.push(`  ${k} = ${v}`);
  lines.push(...limitLines(ask, estimate));
  lines.push(
    provisioned ? "hosts below are the private addresses `up` returned (this is the plan the run carries out)" : "hosts below are the machines' names; at run time they are the private addresses `up` returns"
  );
  return `${lines.join("\n")}

`;
}
function limitLines(ask, estimate) {
  const s = ask.settings;
  const lines = [estimateText(estimate)];
  if (s.budget !== void 0)
    lines.push(
      estimate.dollars > s.budget ? `budget: $${s.budget.toFixed(2)}: OVER: a run would be refused before anything is created` : `budget: $${s.budget.toFixed(2)}: within (estimate $${estimate.dollars.toFixed(2)})`
    );
  if (outlivesTtl(ask, estimate))
    lines.push(
      `ttl: ${s.ttl}: SHORTER than the run (${estimate.hours.toFixed(2)} h): a run would be refused before anything is created`
    );
  return lines;
}
function kubernetesCloudPlanText(cloud, ask, estimate, tags) {
  const s = ask.settings;
  const lines = [
    `cluster: ${cloud.where(ask)}, created for the run and destroyed after it, ttl ${s.ttl}, state ${s.backend ?? "file://<run>/cloud/state"}`,
    `resources Pulumi would create (stack tiperf-${ask.name}-<pr N, branch or local>):`
  ];
  for (const r of cloud.resources(ask))
    lines.push(`  ${String(r.count).padStart(2)} \xD7 ${r.type} ${r.name}${r.about ? `    # ${r.about}` : ""}`);
  lines.push(
    `the run's tags on every ${cloud.name} resource, as the cloud takes them (the provider's defaults):`
  );
  for (const [tag, value] of Object.entries(tagsOf(tags))) {
    const [k, v] = Object.entries(cloud.labels({ [tag]: value }))[0];
    lines.push(`  ${k} = ${value.startsWith("<") ? value : v}`);
  }
  lines.push(...limitLines(ask, estimate));
  const pools = ask.pools.map(
    (p) => `${p.name} ${Object.entries(cloud.poolSelector(p.name)).map(([k, v]) => `${k}=${v}`)}`
  );
  lines.push(`pods placed by pool: ${pools.join("; ")}`);
  lines.push("the API server below is the created cluster's (its kubeconfig: <run>/cloud/kubeconfig)");
  return `${lines.join("\n")}

`;
}
function plannedTags(ttl, runId) {
  return {
    runId: runId ?? "<run id>",
    expiresAt: `<start + ${ttl}>`,
    repository: "<owner/repo>",
    pr: "<pr or none>"
  };
}
function budgetRefusals(ask, estimate, file, section) {
  try {
    checkBudget(ask, estimate, file, section);
    return [];
  } catch (e) {
    return [e.message];
  }
}

// action/src/targets/tidb/deployments/kubernetes/schema.ts
var LABEL_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
var LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;
var selector = external_exports.record(
  external_exports.string().regex(LABEL_KEY, "must be a Kubernetes label key (like cloud.google.com/gke-nodepool)"),
  external_exports.string().regex(LABEL_VALUE, "must be a Kubernetes label value")
);
var quantity = external_exports.string().regex(/^\d+(\.\d+)?(Ki|Mi|Gi|Ti|Pi|k|M|G|T)?$/, "must be a Kubernetes quantity (like 100Gi)");
var age = (fallback) => external_exports.string().default(fallback).refine((v) => parseAge(v) !== void 0, "must be a lifetime like 90m, 6h or 1d");
var perRole = (t) => external_exports.strictObject({ pd: t.optional(), tikv: t.optional(), tidb: t.optional(), tiflash: t.optional() });
var KubernetesSchema = external_exports.strictObject({
  /** The kubeconfig file (default: $KUBECONFIG, else ~/.kube/config). */
  kubeconfig: external_exports.string().min(1).optional(),
  /** Its context (default: the file's current-context). */
  context: external_exports.string().min(1).optional(),
  /** Every pod of the cluster on its node's network (seed 000's host vs pod network). */
  host_network: external_exports.boolean().default(false),
  /** Images of each role (the variant's version is the tag). */
  images: perRole(external_exports.string().min(1)).default({}),
  /** Storage requested per role (PD, TiKV and TiFlash keep data). */
  storage: external_exports.strictObject({
    pd: quantity.default("10Gi"),
    tikv: quantity.default("100Gi"),
    tiflash: quantity.default("100Gi")
  }).prefault({}),
  /** Storage class per role (local SSD vs persistent disk); default: the cluster's default class. */
  storage_class: external_exports.strictObject({
    pd: external_exports.string().min(1).optional(),
    tikv: external_exports.string().min(1).optional(),
    tiflash: external_exports.string().min(1).optional()
  }).optional(),
  /** Node labels each role's pods must match (a node pool); roles.<role>.instance_type adds the machine type. */
  node_selector: perRole(selector).optional(),
  /**
   * How this machine reaches each TiDB: a LoadBalancer Service's address, or a NodePort on a
   * node's address (the runner inside the cluster's network).
   */
  service: external_exports.enum(["LoadBalancer", "NodePort"], { error: "must be LoadBalancer or NodePort" }).default("LoadBalancer"),
  /**
   * The load tools in a pod of the run's namespace on a node of their own (seed 000: sysbench on a
   * c2-standard-30), reaching TiDB through its Service inside the cluster; absent: on this machine
   * through the Service's outside address.
   */
  load: external_exports.strictObject({
    /** An image with the spec's load tools on PATH (and GNU `timeout` for go-ycsb's stop). */
    image: external_exports.string().min(1),
    /** Node labels the load pod must match (its node pool). */
    node_selector: selector.optional(),
    /** The machine type of its node (node.kubernetes.io/instance-type). */
    instance_type: external_exports.string().min(1).optional(),
    /** CPUs requested for the pod; data loads use this many threads. */
    cpus: external_exports.number().int().positive().default(4),
    /** Memory requested for the pod. */
    memory: quantity.optional(),
    /** How long a load pod may take to start running (scheduling, image pull). */
    start_timeout: durationSchema(1).default(600)
  }).optional(),
  /**
   * How variants of one version take turns: a TidbCluster each, up side by side; or one
   * TidbCluster whose spec is switched to each variant's config by TiDB Operator's rolling update
   * (the roles whose config differs replaced pod by pod, on the same nodes and volumes), the
   * variants in groups per block (compare.blocks ≥ 3); or one TidbCluster switched online by SET
   * CONFIG through TiDB (only TiKV and PD items TiDB can change online may differ).
   */
  config_switch: external_exports.enum(["side-by-side", "rolling-update", "online"], {
    error: "must be side-by-side, rolling-update or online"
  }).default("side-by-side"),
  /** How long a TidbCluster may take to become Ready (the operator's status says so). */
  ready_timeout: durationSchema(1).default(1800),
  /** After this, `tiperf reap --kubernetes` deletes the run's namespace even if tiperf never came back. */
  ttl: age("6h")
});

// action/src/targets/tidb/schema.ts
var NUMA = /^\d+(,\d+)*$/;
var numaNode = external_exports.string().regex(NUMA, 'must be a NUMA node list like "0" or "0,1" (as numactl --membind takes)');
var ResourceControlSchema = external_exports.strictObject({
  cpu_quota: external_exports.string().regex(/^\d+%$/, 'must be a percentage of one CPU like "800%" (systemd CPUQuota)').optional(),
  memory_limit: external_exports.string().regex(/^\d+(\.\d+)?[KMGT]?$/, 'must be a size like "32G" (systemd MemoryLimit)').optional()
});
var settings = external_exports.record(external_exports.string().min(1), external_exports.unknown());
var ServerConfigsSchema = external_exports.strictObject({
  tidb: settings.optional(),
  tikv: settings.optional(),
  pd: settings.optional(),
  tiflash: settings.optional()
});
var TIDB_VERSION = /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$|^nightly$/;
var TIDB_VERSION_TEXT = "must be a TiDB version as tiup names it: v<major>.<minor>.<patch> (like v8.5.0) or nightly";
var roleOverride = external_exports.strictObject({
  count: external_exports.number().int().min(0).optional(),
  numa_node: numaNode.optional(),
  resource_control: ResourceControlSchema.optional(),
  config: external_exports.record(external_exports.string().min(1), external_exports.unknown()).optional()
});
var TidbTargetSchema = external_exports.strictObject({
  kind: external_exports.literal("tidb"),
  /** The cluster profile (infra/profiles/*.yaml); `tiperf … --profile FILE` overrides it. */
  profile: external_exports.string().optional(),
  /**
   * The release tiup deploys; with a binpath, the version that build must report (its
   * tidb_version()'s Release Version), or left out to take what the build says.
   */
  version: external_exports.string({ error: TIDB_VERSION_TEXT }).regex(TIDB_VERSION, TIDB_VERSION_TEXT).optional(),
  /**
   * Builds to run instead of the release's (custom builds): a tidb-server path, or per role
   * {tidb, tikv, pd}. A local profile's server; a playground's --db/--kv/--pd.binpath; a cluster's
   * `tiup cluster patch` of that role after deploy.
   */
  binpath: external_exports.union(
    [
      external_exports.string().min(1, "must be the path of a tidb-server binary"),
      external_exports.strictObject({
        tidb: external_exports.string().min(1).optional(),
        tikv: external_exports.string().min(1).optional(),
        pd: external_exports.string().min(1).optional()
      })
    ],
    { error: "must be the path of a tidb-server binary, or {tidb, tikv, pd} paths per role" }
  ).optional(),
  /**
   * The tidb-server binary is a counting build (go build -cover with tiperf's counting file, as
   * target.source.count makes it): its Go statements executed per operation are read. Set by
   * target.source.count; give it with a binpath built so.
   */
  counting: external_exports.boolean().optional(),
  /**
   * A TiDB source tree to build tidb-server from (instead of a binpath): the build runs in a
   * checkout of `ref` kept beside the tree, and each commit's binary is kept, never built twice.
   */
  source: external_exports.strictObject({
    /** A git work tree (or repository) of TiDB. */
    path: external_exports.string().min(1, "must be the path of a git repository of TiDB source"),
    /** The commit to build (a branch, tag or SHA of that repository); default HEAD. */
    ref: external_exports.string().min(1).optional(),
    /** The command that builds tidb-server in the checkout, as an argument array (no shell). */
    build: external_exports.array(external_exports.string().min(1), {
      error: "must be the build command as a list, like [./build.sh, --release]"
    }).min(1, "must name the build command"),
    /** Where the build leaves tidb-server, relative to the checkout. */
    binary: external_exports.string().min(1).default("bin/tidb-server"),
    /** Environment of the build (over PATH, HOME and Go's own GO*, CGO_* variables). */
    env: external_exports.record(
      external_exports.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name"),
      external_exports.string()
    ).optional(),
    /**
     * The most disk the tree's kept builds may take (like 10G; a tidb-server is 230–280 MB): the
     * least recently used go first.
     */
    keep: external_exports.string().regex(/^\d+(\.\d+)?[MG]$/, "must be a size like 10G or 800M").default("10G"),
    /**
     * A counting build (targets/tidb/counting.ts): Go's coverage counters compiled into the
     * tree's packages, so that the Go statements the server executes per operation are counted
     * (go_stmts_per_op, per source file among what the server did differently). `true`: the
     * main package in cmd/tidb-server, every package of the tree's module counted.
     */
    count: external_exports.union(
      [
        external_exports.boolean(),
        external_exports.strictObject({
          /** The directory of tidb-server's main package, relative to source.path. */
          main: external_exports.string().min(1).refine((m) => !m.startsWith("/") && !m.split("/").includes(".."), {
            error: "must be a directory inside the tree, relative to source.path (like cmd/tidb-server)"
          }).default("cmd/tidb-server"),
          /** Go package patterns to count (go build -coverpkg); default: the module's every package. */
          packages: external_exports.array(external_exports.string().min(1)).min(1).optional()
        })
      ],
      {
        error: "must be true, false, or {main: <directory of the main package>, packages: [<Go package patterns>]}"
      }
    ).optional(),
    /** The longest a build may take (like 45m). */
    timeout: external_exports.string().regex(/^\d+(s|m|h)$/, "must be a duration like 45m or 2h").default("60m")
  }).optional(),
  /** A local profile's server: the CPUs it may run on and its share of one CPU (as mariadb's). */
  resources: ResourcesSchema.optional(),
  /** tiup's server_configs, merged over the profile's. */
  server_configs: ServerConfigsSchema.optional(),
  /** Per-role overrides of the profile (count, numa_node, resource_control, config). */
  roles: external_exports.strictObject({
    pd: roleOverride.optional(),
    tikv: roleOverride.optional(),
    tidb: roleOverride.optional(),
    tiflash: roleOverride.optional()
  }).optional(),
  /** Statements run after the cluster starts (SET GLOBAL tidb_…). */
  sql: external_exports.array(external_exports.string().min(1)).optional(),
  /** Split each load table into regions and scatter them before the run. */
  split: external_exports.strictObject({ regions: external_exports.number().int().min(2).max(1e4) }).optional()
});
var BUILD_ROLES = { tidb: "tidb-server", tikv: "tikv-server", pd: "pd-server" };
function binpathsOf(t) {
  if (t.binpath === void 0) return {};
  return typeof t.binpath === "string" ? { tidb: t.binpath } : t.binpath;
}

// action/src/targets/tidb/profile.ts
var ROLES = ["pd", "tikv", "tidb", "tiflash"];
var ROLE_PORTS = {
  pd: { client_port: 2379, peer_port: 2380 },
  tikv: { port: 20160, status_port: 20180 },
  tidb: { port: 4e3, status_port: 10080 },
  tiflash: {
    tcp_port: 9e3,
    http_port: 8123,
    flash_service_port: 3930,
    flash_proxy_port: 20170,
    flash_proxy_status_port: 20292,
    metrics_port: 8234
  }
};
var MAIN_PORT = {
  pd: "client_port",
  tikv: "port",
  tidb: "port",
  tiflash: "tcp_port"
};
var PORT_STEP = { pd: 2, tikv: 1, tidb: 1, tiflash: 1 };
var CLOUD_NAMES = Object.keys(CLOUDS);
var isCloud = (provider) => CLOUD_NAMES.includes(provider);
var CLOUD_SECTIONS = Object.fromEntries(
  [...Object.values(CLOUDS), ...Object.values(KUBERNETES_CLOUDS)].map((c) => [c.name, c.settings.optional()])
);
var HOST2 = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^[0-9a-fA-F:]+$/;
var host = external_exports.string().regex(HOST2, "must be a host name or IP address (like 10.0.1.5)");
var hostList = external_exports.array(host).min(1, "must list at least one host");
var instanceSchema = (role) => external_exports.strictObject({
  host,
  ...Object.fromEntries(Object.keys(ROLE_PORTS[role]).map((p) => [p, external_exports.number().int().optional()])),
  deploy_dir: external_exports.string().startsWith("/", "must be an absolute path").optional(),
  data_dir: external_exports.string().startsWith("/", "must be an absolute path").optional(),
  numa_node: numaNode.optional()
});
var roleSchema = (role) => external_exports.strictObject({
  count: external_exports.number().int().min(0, "must be 0 or more").optional(),
  numa_node: numaNode.optional(),
  resource_control: ResourceControlSchema.optional(),
  /** Per-instance config of this role (tiup's `config:` under each instance). */
  config: settings.optional(),
  arch: external_exports.enum(["amd64", "arm64"], { error: "must be amd64 or arm64" }).optional(),
  os: external_exports.enum(["linux"], { error: "must be linux" }).optional(),
  /** Instances placed by hand (host, ports, directories) instead of `count` spread over `hosts`. */
  instances: external_exports.array(instanceSchema(role)).optional(),
  /** A cloud provider: the machine type of this role's machines (one machine per instance). */
  instance_type: external_exports.string().regex(/^[a-z0-9-]+[.-][a-z0-9-]+$/, "must be an instance type of the cloud, like m6i.4xlarge").optional()
});
var RolesSchema = external_exports.strictObject({
  pd: roleSchema("pd").default({}),
  tikv: roleSchema("tikv").default({}),
  tidb: roleSchema("tidb").default({}),
  tiflash: roleSchema("tiflash").default({ count: 0 })
});
var ProfileSchema = external_exports.strictObject({
  name: external_exports.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, "must be lower-case letters, digits, _ or -"),
  description: external_exports.string().optional(),
  /** Where its machines come from: a way to deploy of deployments/registry.ts (checked on load). */
  provider: external_exports.string(),
  /** Existing machines per role (provider hosts); `load` runs the load generator (and HAProxy). */
  hosts: external_exports.strictObject({
    pd: hostList.optional(),
    tikv: hostList.optional(),
    tidb: hostList.optional(),
    tiflash: hostList.optional(),
    load: hostList.max(1, "one load host").optional(),
    monitor: hostList.max(1, "one monitoring host").optional()
  }).optional(),
  ssh: external_exports.strictObject({
    user: external_exports.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, "must be a Linux user name").default("tidb"),
    identity_file: external_exports.string().optional(),
    port: external_exports.number().int().min(1).max(65535).default(22),
    /**
     * A bastion: the only machine the runner reaches by SSH. tiup goes through it
     * (--ssh-proxy-*), so do the load host's SSH sessions; tiperf's SQL and status checks run
     * on the load host.
     */
    proxy: external_exports.strictObject({
      host: external_exports.string().min(1),
      user: external_exports.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, "must be a Linux user name").optional(),
      port: external_exports.number().int().min(1).max(65535).default(22),
      identity_file: external_exports.string().optional()
    }).optional()
  }).optional(),
  /** tiup's `global:` — the user the cluster runs as, and where instances live on each host. */
  global: external_exports.strictObject({
    user: external_exports.string().regex(
      /^[a-z_]([a-z0-9_-]{0,31}|[a-z0-9_-]{0,30}\$)$/,
      "must start with a lower-case letter or _, then lower-case letters, digits, _ or - (tiup's rule)"
    ).default("tidb"),
    deploy_dir: external_exports.string().startsWith("/", "must be an absolute path").default("/tidb-deploy"),
    data_dir: external_exports.string().startsWith("/", "must be an absolute path").default("/tidb-data")
  }).default({ user: "tidb", deploy_dir: "/tidb-deploy", data_dir: "/tidb-data" }),
  roles: RolesSchema.prefault({}),
  /** HAProxy on the load host in front of every TiDB server; the load tools connect to it. */
  haproxy: external_exports.boolean().default(false),
  haproxy_port: external_exports.number().int().min(1).max(65535).default(3390),
  /** Prometheus and Grafana (tiup's monitoring_servers / grafana_servers). */
  monitoring: external_exports.boolean().default(false),
  server_configs: ServerConfigsSchema.default({}),
  /** provider endpoint: the existing TiDB's SQL (and status) address, user and what tiperf may do there. */
  endpoint: EndpointSchema.optional(),
  /** provider kubernetes: the cluster (a kubeconfig context) and how its TidbClusters are laid out. */
  kubernetes: KubernetesSchema.optional(),
  /** A cloud's section (aws: region, image, spot, ttl, budget, state backend, the load host's type). */
  ...CLOUD_SECTIONS
});
var cloudSettings = (p) => isCloud(p.provider) ? p[p.provider] : void 0;

// action/src/targets/tidb/cloud.ts
function cloudOfProfile(profile) {
  return cloudSettings(profile) ? cloudOf(profile.provider) : void 0;
}
var CLOUD_SETUP_HOURS = 0.5;
function cloudEstimate(profile, matrixSeconds) {
  return estimateCost(cloudOf(profile.provider), askOf(profile), {
    setup: CLOUD_SETUP_HOURS,
    matrix: matrixSeconds / 3600
  });
}
function askOf(profile) {
  const settings2 = cloudSettings(profile);
  if (!settings2) throw new Error(`profile ${profile.name}: provider ${profile.provider} is not a cloud`);
  return {
    name: profile.name,
    roles: ROLES.map((role) => {
      const r = profile.roles[role];
      return {
        role,
        count: r.count ?? 0,
        ...r.instance_type ? { instanceType: r.instance_type } : {},
        data: role === "tikv" || role === "tiflash"
      };
    }),
    settings: settings2
  };
}
function withHosts(profile, c) {
  const settings2 = cloudSettings(profile);
  if (!settings2) throw new Error(`profile ${profile.name}: provider ${profile.provider} is not a cloud`);
  const list2 = (role) => c.hosts[role]?.length ? { [role]: c.hosts[role] } : {};
  const port2 = c.sshPort ?? 22;
  return {
    ...profile,
    hosts: { ...list2("pd"), ...list2("tikv"), ...list2("tidb"), ...list2("tiflash"), ...list2("load") },
    ssh: {
      user: settings2.ssh_user,
      port: port2,
      identity_file: c.identityFile,
      proxy: { host: c.bastion, user: settings2.ssh_user, port: port2, identity_file: c.identityFile }
    }
  };
}

// action/src/targets/tidb/deployments/cluster/index.ts
import { basename as basename4, dirname as dirname3, join as join13 } from "node:path";

// action/src/targets/tidb/config.ts
import { homedir } from "node:os";

// action/src/targets/tidb/topology.ts
var import_yaml2 = __toESM(require_dist(), 1);
var SECTION = {
  pd: "pd_servers",
  tikv: "tikv_servers",
  tidb: "tidb_servers",
  tiflash: "tiflash_servers"
};
var MONITORED = { node_exporter_port: 9100, blackbox_exporter_port: 9115 };
var PROMETHEUS = { port: 9090, ng_port: 12020 };
var GRAFANA = { port: 3e3 };
var CLUSTER_PORT_OFFSET = 1e3;
function effectiveRoles(profile, target) {
  const roles = structuredClone(profile.roles);
  for (const [role, cfg] of Object.entries(target.server_configs ?? {})) {
    const own = roles[role]?.config;
    if (!own || !cfg) continue;
    const set = new Set(Object.keys(dotted(cfg)));
    const kept = Object.fromEntries(Object.entries(dotted(own)).filter(([k]) => !set.has(k)));
    roles[role].config = kept;
  }
  return deepMerge(roles, target.roles ?? {});
}
function dotted(config, prefix = "") {
  const out = {};
  for (const [k, v] of Object.entries(config)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v))
      Object.assign(out, dotted(v, key));
    else out[key] = v;
  }
  return out;
}
function effectiveServerConfigs(profile, target) {
  const merged = deepMerge(profile.server_configs, target.server_configs ?? {});
  return Object.fromEntries(
    Object.entries(merged).filter(([, v]) => v && Object.keys(v).length > 0)
  );
}
function buildCluster(o) {
  const { profile, target, index } = o;
  const offset = index * CLUSTER_PORT_OFFSET;
  const roles = effectiveRoles(profile, target);
  const deployDir = `${profile.global.deploy_dir}/${o.name}`;
  const dataDir = `${profile.global.data_dir}/${o.name}`;
  const instances = [];
  for (const role of ROLES) {
    const r = roles[role];
    const placed = r.instances ?? Array.from({ length: r.count ?? 0 }, (_, i) => {
      const hosts = profile.hosts?.[role] ?? [];
      return { host: hosts[i % hosts.length] };
    });
    const onHost = /* @__PURE__ */ new Map();
    placed.forEach((p, i) => {
      const k = onHost.get(p.host) ?? 0;
      onHost.set(p.host, k + 1);
      const given = p;
      const ports = {};
      for (const [name, base] of Object.entries(ROLE_PORTS[role]))
        ports[name] = typeof given[name] === "number" ? given[name] : base + offset + k * PORT_STEP[role];
      const main = ports[MAIN_PORT[role]];
      const inst = {
        role,
        host: p.host,
        ports,
        deploy_dir: given.deploy_dir ?? `${deployDir}/${role}-${main}`,
        from: r.instances ? `roles.${role}.instances[${i}]` : `roles.${role} (instance ${i + 1} of ${r.count})`
      };
      if (role !== "tidb")
        inst.data_dir = given.data_dir ?? `${dataDir}/${role}-${main}`;
      const numa = given.numa_node ?? r.numa_node;
      if (numa !== void 0) inst.numa_node = numa;
      if (r.resource_control) inst.resource_control = r.resource_control;
      if (r.config && Object.keys(r.config).length) inst.config = r.config;
      if (r.arch) inst.arch = r.arch;
      if (r.os) inst.os = r.os;
      instances.push(inst);
    });
  }
  const monitorHost = profile.hosts?.monitor?.[0] ?? profile.hosts?.load?.[0] ?? profile.hosts?.pd?.[0];
  return {
    name: o.name,
    version: target.version ?? "",
    index,
    user: profile.global.user,
    sshPort: profile.ssh?.port ?? 22,
    deployDir,
    dataDir,
    serverConfigs: effectiveServerConfigs(profile, target),
    instances,
    ...profile.monitoring && monitorHost ? {
      monitoring: {
        host: monitorHost,
        prometheus: PROMETHEUS.port + offset,
        ng_port: PROMETHEUS.ng_port + offset,
        grafana: GRAFANA.port + offset
      }
    } : {},
    monitored: {
      node_exporter_port: MONITORED.node_exporter_port + offset,
      blackbox_exporter_port: MONITORED.blackbox_exporter_port + offset
    },
    exporters: profile.monitoring
  };
}
function topologyObject(c, configs = true) {
  const out = {
    global: { user: c.user, ssh_port: c.sshPort, deploy_dir: c.deployDir, data_dir: c.dataDir },
    monitored: c.monitored
  };
  if (configs && Object.keys(c.serverConfigs).length) out.server_configs = c.serverConfigs;
  for (const role of ROLES) {
    const list2 = c.instances.filter((i) => i.role === role).map((i) => {
      const entry = { host: i.host };
      if (role === "pd") entry.name = `pd-${i.host}-${i.ports.client_port}`;
      Object.assign(entry, i.ports);
      entry.deploy_dir = i.deploy_dir;
      if (i.data_dir) entry.data_dir = i.data_dir;
      if (i.numa_node !== void 0) entry.numa_node = i.numa_node;
      if (i.resource_control) entry.resource_control = i.resource_control;
      if (i.arch) entry.arch = i.arch;
      if (i.os) entry.os = i.os;
      if (!c.exporters) entry.ignore_exporter = true;
      if (configs && i.config) entry.config = i.config;
      return entry;
    });
    if (list2.length) out[SECTION[role]] = list2;
  }
  if (c.monitoring) {
    const m = c.monitoring;
    out.monitoring_servers = [
      {
        host: m.host,
        port: m.prometheus,
        ng_port: m.ng_port,
        deploy_dir: `${c.deployDir}/prometheus-${m.prometheus}`,
        data_dir: `${c.dataDir}/prometheus-${m.prometheus}`
      }
    ];
    out.grafana_servers = [
      { host: m.host, port: m.grafana, deploy_dir: `${c.deployDir}/grafana-${m.grafana}` }
    ];
  }
  return out;
}
function topologyYaml(c) {
  return `# tiup topology of cluster ${c.name} (TiDB ${c.version}), generated by tiperf
${(0, import_yaml2.stringify)(topologyObject(c), { lineWidth: 0, aliasDuplicateObjects: false })}`;
}
var side = (u, host2) => `'${u.section}:${host2}.${u.key}'`;
var origin = (u, several) => `${several ? `cluster ${u.cluster} ` : ""}${u.from}`;
function topologyProblems(clusters) {
  const problems = [];
  const several = clusters.length > 1;
  const platforms = /* @__PURE__ */ new Map();
  const ports = /* @__PURE__ */ new Map();
  const dirs = /* @__PURE__ */ new Map();
  const pdNames = /* @__PURE__ */ new Set();
  const claimPort = (host2, port2, u) => {
    if (!Number.isInteger(port2) || port2 < 1 || port2 > 65535) {
      problems.push(
        `${u.from}: \`${u.section}\` of ${u.key}=${port2} is invalid, port should be in the range [1, 65535]`
      );
      return;
    }
    const key = `${host2}:${port2}`;
    const prev = ports.get(key);
    if (prev)
      problems.push(
        `${u.from}: port conflict for '${port2}' between ${side(prev, host2)} (${origin(prev, several)}) and ${side(u, host2)} (${origin(u, several)}); give one of them another port`
      );
    else ports.set(key, u);
  };
  const claimDir = (host2, dir, u) => {
    const key = `${host2}:${dir}`;
    const prev = dirs.get(key);
    if (prev)
      problems.push(
        `${u.from}: directory conflict for '${dir}' between ${side(prev, host2)} (${origin(prev, several)}) and ${side(u, host2)} (${origin(u, several)})`
      );
    else dirs.set(key, u);
  };
  for (const c of clusters) {
    const hosts = /* @__PURE__ */ new Set();
    for (const i of c.instances) {
      hosts.add(i.host);
      const section = SECTION[i.role];
      const used = (key) => ({ cluster: c.name, section, key, from: i.from });
      const platform = `${i.os ?? "linux"}/${i.arch ?? "amd64"}`;
      const prev = platforms.get(i.host);
      if (prev && prev.platform !== platform)
        problems.push(
          `${i.from}: platform mismatch for '${i.host}' between '${prev.used.section}:${prev.platform}' (${prev.used.from}) and '${section}:${platform}'; a host has one os/arch`
        );
      else if (!prev) platforms.set(i.host, { platform, used: used("arch") });
      for (const [key, port2] of Object.entries(i.ports)) claimPort(i.host, port2, used(key));
      claimDir(i.host, i.deploy_dir, used("deploy_dir"));
      if (i.data_dir) claimDir(i.host, i.data_dir, used("data_dir"));
      if (i.role === "pd") {
        const name = `${c.name}/pd-${i.host}-${i.ports.client_port}`;
        if (pdNames.has(name))
          problems.push(
            `${i.from}: component pd_servers.name is not supported duplicated, the name pd-${i.host}-${i.ports.client_port} is duplicated`
          );
        pdNames.add(name);
      }
    }
    if (c.monitoring) {
      const m = c.monitoring;
      const u = (section, key) => ({
        cluster: c.name,
        section,
        key,
        from: "monitoring: true"
      });
      hosts.add(m.host);
      claimPort(m.host, m.prometheus, u("monitoring_servers", "port"));
      claimPort(m.host, m.ng_port, u("monitoring_servers", "ng_port"));
      claimPort(m.host, m.grafana, u("grafana_servers", "port"));
    }
    for (const host2 of hosts)
      for (const [key, port2] of Object.entries(c.monitored))
        claimPort(host2, port2, {
          cluster: c.name,
          section: "monitored",
          key,
          from: `the ${key.replace(/_port$/, "")} tiup runs on every host`
        });
  }
  return problems;
}
function checkTopology(clusters, file) {
  const problems = topologyProblems(clusters);
  if (problems.length) throw new InputError(problems.map((p) => `${file}: ${p}`).join("\n"));
}

// action/src/targets/tidb/config.ts
var tomlKey = (k) => /^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k);
function tomlValue(v) {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(", ")}]`;
  throw new InputError(`cannot write ${JSON.stringify(v)} into a TOML config`);
}
function expandDotted(config) {
  let out = {};
  for (const [key, value] of Object.entries(config)) {
    const parts2 = key.split(".");
    const nested = parts2.reduceRight(
      (acc, part) => ({ [part]: acc }),
      value && typeof value === "object" && !Array.isArray(value) ? expandDotted(value) : value
    );
    out = deepMerge(out, nested);
  }
  return out;
}
function toToml(config) {
  const lines = [];
  const walk = (obj, path) => {
    const scalars = Object.entries(obj).filter(([, v]) => !(v && typeof v === "object" && !Array.isArray(v)));
    const tables = Object.entries(obj).filter(([, v]) => v && typeof v === "object" && !Array.isArray(v));
    if (path.length && scalars.length) lines.push("", `[${path.map(tomlKey).join(".")}]`);
    for (const [k, v] of scalars) lines.push(`${tomlKey(k)} = ${tomlValue(v)}`);
    for (const [k, v] of tables) walk(v, [...path, k]);
  };
  walk(expandDotted(config), []);
  return `${lines.join("\n").trim()}
`;
}
function flatKeys(config, prefix = "") {
  const out = [];
  for (const [k, v] of Object.entries(expandDotted(config))) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v))
      out.push(...flatKeys(v, key));
    else out.push([key, v]);
  }
  return out;
}
function roleConfig(profile, target, role) {
  const server = effectiveServerConfigs(profile, target)[role] ?? {};
  const own = effectiveRoles(profile, target)[role].config ?? {};
  return deepMerge(expandDotted(server), expandDotted(own));
}
var expandHome = (path) => path.startsWith("~/") ? `${homedir()}/${path.slice(2)}` : path;
var PLAN_DIR = "<run>/tidb";
var configUrl = (role, addr) => role === "pd" ? `http://${addr}/pd/api/v1/config` : `http://${addr}/config`;

// action/src/targets/tidb/online.ts
var oneOf = (prefix, names) => `${prefix}\\.(?:${names.trim().split(/\s+/).join("|")})`;
var TIKV = [
  oneOf(
    "raftstore",
    `raft-max-inflight-msgs raft-log-gc-tick-interval raft-log-gc-threshold raft-log-gc-count-limit
     raft-log-gc-size-limit raft-max-size-per-msg raft-entry-max-size raft-entry-cache-life-time
     max-apply-unpersisted-log-limit split-region-check-tick-interval region-split-check-diff
     region-compact-check-interval region-compact-check-step region-compact-min-tombstones
     region-compact-tombstones-percent pd-heartbeat-tick-interval pd-store-heartbeat-tick-interval
     snap-mgr-gc-tick-interval snap-gc-timeout lock-cf-compact-interval lock-cf-compact-bytes-threshold
     messages-per-tick max-peer-down-duration max-leader-missing-duration abnormal-leader-missing-duration
     peer-stale-state-check-interval consistency-check-interval raft-store-max-leader-lease
     merge-check-tick-interval cleanup-import-sst-interval local-read-batch-size apply-yield-write-size
     hibernate-timeout apply-pool-size store-pool-size apply-max-batch-size store-max-batch-size
     periodic-full-compact-start-max-cpu`
  ),
  oneOf("readpool\\.unified", "max-thread-count max-tasks-per-worker auto-adjust-pool-size"),
  oneOf(
    "coprocessor",
    "split-region-on-table batch-split-limit region-max-size region-split-size region-max-keys region-split-keys"
  ),
  oneOf("pessimistic-txn", "wait-for-lock-timeout wake-up-delay-duration pipelined in-memory"),
  oneOf(
    "quota",
    `foreground-cpu-time foreground-write-bandwidth foreground-read-bandwidth background-cpu-time
     background-write-bandwidth background-read-bandwidth enable-auto-tune max-delay-duration`
  ),
  oneOf(
    "gc",
    "ratio-threshold batch-keys max-write-bytes-per-sec enable-compaction-filter compaction-filter-skip-version-check"
  ),
  oneOf(
    "(?:rocksdb|raftdb)",
    `max-total-wal-size max-background-jobs max-background-flushes max-open-files compaction-readahead-size
     bytes-per-sync wal-bytes-per-sync writable-file-max-buffer-size`
  ),
  oneOf(
    "(?:rocksdb\\.(?:defaultcf|writecf|lockcf|raftcf)|raftdb\\.defaultcf)",
    `block-cache-size write-buffer-size max-write-buffer-number max-bytes-for-level-base target-file-size-base
     level0-file-num-compaction-trigger level0-slowdown-writes-trigger level0-stop-writes-trigger
     max-compaction-bytes max-bytes-for-level-multiplier disable-auto-compactions
     soft-pending-compaction-bytes-limit hard-pending-compaction-bytes-limit titan\\.blob-run-mode
     titan\\.min-blob-size titan\\.blob-file-compression titan\\.discardable-ratio`
  ),
  oneOf(
    "server",
    `grpc-memory-pool-quota max-grpc-send-msg-len snap-io-max-bytes-per-sec concurrent-send-snap-limit
     concurrent-recv-snap-limit raft-msg-max-batch-size simplify-metrics`
  ),
  oneOf("storage", "block-cache\\.capacity scheduler-worker-pool-size"),
  "backup\\.num-threads",
  oneOf(
    "split",
    "qps-threshold byte-threshold region-cpu-overload-threshold-ratio split-balance-score split-contained-score"
  ),
  oneOf(
    "cdc",
    "min-ts-interval old-value-cache-memory-quota sink-memory-quota incremental-scan-speed-limit incremental-scan-concurrency"
  )
];
var PD = [
  "log\\.level",
  oneOf(
    "schedule",
    `max-merge-region-size max-merge-region-keys patrol-region-interval split-merge-interval
     max-snapshot-count max-pending-peer-count max-store-down-time max-store-preparing-time
     leader-schedule-policy leader-schedule-limit region-schedule-limit replica-schedule-limit
     merge-schedule-limit hot-region-schedule-limit hot-region-cache-hits-threshold high-space-ratio
     low-space-ratio tolerant-size-ratio enable-remove-down-replica enable-replace-offline-replica
     enable-make-up-replica enable-remove-extra-replica enable-location-replacement
     enable-cross-table-merge enable-one-way-merge region-score-formula-version
     scheduler-max-waiting-operator enable-debug-metrics enable-joint-consensus
     hot-regions-write-interval hot-regions-reserved-days max-movable-hot-peer-size store-limit-version`
  ),
  oneOf(
    "replication",
    "max-replicas location-labels enable-placement-rules strictly-match-label isolation-level"
  ),
  oneOf(
    "pd-server",
    `use-region-storage max-gap-reset-ts key-type metric-storage dashboard-address flow-round-by-digit
     min-resolved-ts-persistence-interval server-memory-limit server-memory-limit-gc-trigger
     enable-gogc-tuner gc-tuner-threshold`
  )
];
var ONLINE = {
  tikv: new RegExp(`^(?:${TIKV.join("|")})$`),
  pd: new RegExp(`^(?:${PD.join("|")})$`)
};
function changesOnline(role, key) {
  return ONLINE[role]?.test(key) ?? false;
}
var setConfigBody = (key, value) => JSON.stringify({ [key]: value });
function configSwitchOf(setups) {
  const all = /* @__PURE__ */ new Map();
  for (const s of setups)
    for (const k of s.configKeys) all.set(`${k.role} ${k.key}`, { role: k.role, key: k.key });
  const valueIn = (s, k) => s.configKeys.find((c) => c.role === k.role && c.key === k.key)?.value;
  const keys = [...all.values()].filter((k) => {
    const values = setups.map((s) => JSON.stringify(valueIn(s, k)));
    return new Set(values).size > 1;
  });
  const why = [];
  for (const k of keys) {
    const unset = setups.filter((s) => valueIn(s, k) === void 0).map((s) => s.name);
    if (!changesOnline(k.role, k.key)) why.push(`${k.role} ${k.key} changes only with a restart`);
    else if (unset.length)
      why.push(
        `${k.role} ${k.key} is not set by ${unset.join(", ")}, so there is no value to switch back to online (set it in every variant, e.g. to its default, to switch online)`
      );
  }
  if (!why.length) return { by: "online", keys };
  return { by: "reload", roles: ROLES.filter((r) => keys.some((k) => k.role === r)), keys, why };
}
var quoted2 = (s) => `'${s.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
function setConfigSql(role, key, value) {
  const literal = typeof value === "number" || typeof value === "boolean" ? String(value) : quoted2(String(value));
  return `SET CONFIG ${role} \`${key.replaceAll("`", "``")}\` = ${literal}; SHOW WARNINGS`;
}
var showConfigSql = (role, keys) => `SHOW CONFIG WHERE type = ${quoted2(role)} AND name IN (${keys.map(quoted2).join(", ")})`;
function parseShowConfig(out) {
  const unescaped = (s) => s.replace(
    /\\([\\tn0])/g,
    (_, c) => c === "t" ? "	" : c === "n" ? "\n" : c === "0" ? "\0" : "\\"
  );
  return out.split("\n").filter((line) => line.trim()).map((line) => {
    const [type = "", instance = "", name = "", ...rest] = line.split("	");
    return { type, instance, name, value: unescaped(rest.join("	")) };
  });
}

// action/src/targets/tidb/steps.ts
var stepKey = {
  install: (d) => `install:${d.name}`,
  start: (d) => `start:${d.name}`,
  /** A private server's program copied into its work directory (every start and restart). */
  copy: (d) => `copy:${d.name}`,
  /** A restart of the whole deployment, or of only these roles. */
  restart: (d, roles = []) => roles.length ? `restart:${d.name}:${roles.join(",")}` : `restart:${d.name}`,
  stop: (d) => `stop:${d.name}`,
  deploy: (d) => `deploy:${d.name}`,
  pack: (d, role) => `pack:${d.name}:${role}`,
  patch: (d, role) => `patch:${d.name}:${role}`,
  display: (d) => `display:${d.name}`,
  haproxy: (d) => `haproxy:${d.name}`,
  destroy: (d) => `destroy:${d.name}`,
  editConfig: (d, v) => `edit-config:${d.name}:${v.name}`,
  reload: (d, v) => `reload:${d.name}:${v.name}`,
  setConfig: (v, role, key, addr) => `set-config:${v.name}:${role}:${key}:${addr}`,
  /** SET CONFIG of one item through TiDB's SQL (every instance of the role). */
  setConfigSql: (v, role, key) => `set-config:${v.name}:${role}:${key}`,
  config: (v, role, addr) => `config:${v.name}:${role}:${addr}`,
  /** SHOW CONFIG of a role's items through TiDB's SQL (its status APIs out of reach). */
  showConfig: (v, role) => `show-config:${v.name}:${role}`,
  sql: (v, i) => `sql:${v.name}:${i}`,
  sqlCheck: (v, variable) => `sql-check:${v.name}:${variable}`,
  version: (v) => `version:${v.name}`,
  status: (v) => `status:${v.name}`,
  /** The split of sysbench table n (sbtest<n>) of database db. */
  split: (v, db, n) => `split:${v.name}:${db}${n}`,
  regions: (v) => `regions:${v.name}`,
  analyze: (v, db, table) => `analyze:${v.name}:${db}.${table}`
};

// action/src/targets/tidb/tiup.ts
import { homedir as homedir2 } from "node:os";
import { join as join11 } from "node:path";

// action/src/proc/tool.ts
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
var KILL_GRACE_MS = 3e3;
function invocation(command, args, opts) {
  const [local, localArgs] = opts.cpus ? ["taskset", ["-c", opts.cpus, command, ...args]] : [command, args];
  const remote = opts.remote;
  const [cmd, argv] = remote ? ["ssh", sshArgs(remote, remoteCommand([local, ...localArgs], opts.stopAfterS))] : [local, localArgs];
  const header = maskSecrets(
    remote ? `$ ${shellCommand([local, ...localArgs])}    # on ${remote.user}@${remote.host}: ${shellCommand([cmd, ...argv])}
` : `$ ${shellCommand([cmd, ...argv])}
`
  );
  return { cmd, argv, remote, header };
}
function stopperOf(child) {
  let killTimer;
  const running = () => child.exitCode === null && child.signalCode === null;
  const kill = () => {
    if (!running()) return;
    if (child.stdin) child.stdin.end();
    else child.kill("SIGTERM");
    killTimer ??= setTimeout(
      () => {
        if (running()) child.kill("SIGKILL");
      },
      child.stdin ? KILL_GRACE_MS + 5e3 : KILL_GRACE_MS
    );
  };
  return { kill, clear: () => clearTimeout(killTimer) };
}
function timersOf(opts, child, onLimit) {
  const watchdog = opts.limitS === void 0 ? void 0 : setTimeout(onLimit, opts.limitS * 1e3);
  const stopper2 = opts.stopAfterS === void 0 ? void 0 : setTimeout(() => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (!child.stdin) child.kill("SIGINT");
  }, opts.stopAfterS * 1e3);
  return () => {
    clearTimeout(watchdog);
    clearTimeout(stopper2);
  };
}
function runTool(command, args, opts) {
  if (opts.launcher) return runLaunched(opts.launcher, [command, ...args], opts);
  return new Promise((resolve4) => {
    const started2 = Date.now();
    const { cmd, argv, remote, header } = invocation(command, args, opts);
    const log = createWriteStream(opts.logFile, { flags: "a" });
    let writeError;
    let output = "";
    let aborted;
    let timedOut;
    const write = (chunk) => {
      if (!writeError) log.write(chunk);
    };
    write(header);
    const child = spawn(cmd, argv, {
      stdio: [remote ? "pipe" : "ignore", "pipe", "pipe"],
      env: childEnv(opts.env),
      ...opts.cwd ? { cwd: opts.cwd } : {}
    });
    child.stdin?.on("error", () => {
    });
    if (child.pid !== void 0) opts.onSpawn?.(child.pid);
    const stopper2 = stopperOf(child);
    const kill = stopper2.kill;
    log.on("error", (e) => {
      writeError ??= new WriteError(opts.logFile, e);
      kill();
    });
    const onData = (d) => {
      output += d.toString();
      write(d);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    const unregister = onTeardown(`stop ${command} (pid ${child.pid})`, kill);
    const onAbort = () => {
      const reason = opts.signal?.reason;
      aborted = reason instanceof Error ? reason.message : String(reason ?? "aborted");
      kill();
    };
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const clearTimers = timersOf(opts, child, () => {
      timedOut = { limit_s: opts.limitS };
      kill();
    });
    let done = false;
    const finish = (code, sig) => {
      if (done) return;
      done = true;
      unregister();
      clearTimers();
      stopper2.clear();
      opts.signal?.removeEventListener("abort", onAbort);
      const run = {
        code,
        signal: sig,
        output,
        elapsed_s: (Date.now() - started2) / 1e3,
        ...aborted ? { aborted } : {},
        ...timedOut ? { timedOut } : {}
      };
      const settle = () => resolve4(writeError ? { ...run, writeError } : run);
      if (writeError || log.destroyed) return settle();
      log.once("error", settle);
      log.end(settle);
    };
    child.once("error", (e) => {
      output += `
${e.message}`;
      finish(127, null);
    });
    child.once("close", finish);
  });
}
async function runLaunched(launcher, argv, opts) {
  const started2 = Date.now();
  const log = createWriteStream(opts.logFile, { flags: "a" });
  let writeError;
  let output = "";
  let aborted;
  let timedOut;
  const stop = new AbortController();
  const write = (chunk) => {
    if (!writeError) log.write(chunk);
  };
  log.on("error", (e) => {
    writeError ??= new WriteError(opts.logFile, e);
    stop.abort(writeError);
  });
  write(maskSecrets(`$ ${shellCommand(argv)}    # in ${launcher.describe()}
`));
  const onAbort = () => {
    const reason = opts.signal?.reason;
    aborted = reason instanceof Error ? reason.message : String(reason ?? "aborted");
    stop.abort(reason);
  };
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  const unregister = onTeardown(`stop ${argv[0]} (${launcher.describe()})`, () => stop.abort("teardown"));
  const watchdog = opts.limitS === void 0 ? void 0 : setTimeout(() => {
    timedOut = { limit_s: opts.limitS };
    stop.abort("watchdog");
  }, opts.limitS * 1e3);
  let ended2;
  try {
    ended2 = await launcher.run(argv, {
      onData: (d) => {
        output += d;
        write(d);
      },
      signal: stop.signal,
      ...opts.stopAfterS !== void 0 ? { stopAfterS: opts.stopAfterS } : {}
    });
  } catch (e) {
    output += `
${e.message}`;
    write(`
${maskSecrets(e.message)}
`);
    ended2 = { code: 127, signal: null };
  } finally {
    unregister();
    clearTimeout(watchdog);
    opts.signal?.removeEventListener("abort", onAbort);
  }
  const run = {
    code: ended2.code,
    signal: ended2.signal,
    output,
    elapsed_s: (Date.now() - started2) / 1e3,
    ...aborted ? { aborted } : {},
    ...timedOut ? { timedOut } : {}
  };
  await new Promise((res) => {
    if (writeError || log.destroyed) return res();
    log.once("error", () => res());
    log.end(() => res());
  });
  return writeError ? { ...run, writeError } : run;
}

// action/src/targets/tidb/tiup.ts
var tiupHome = () => setting("TIUP_HOME") || join11(homedir2(), ".tiup");
var lastLines = (text, n = 6) => text.trimEnd().split("\n").slice(-n).join("\n");
function tiupProgram() {
  const tiup = findTool("tiup");
  if (!tiup)
    throw new RunError(
      "target.kind tidb: tiup is not installed (install it from tiup.io, then `tiup install playground cluster`)"
    );
  return tiup;
}
async function runTiup(argv, o) {
  const limitS = o.limitS ?? 1800;
  const [, ...args] = argv;
  const logFile = join11(
    o.rawDir,
    `tiup-${argv[2] ?? argv[1]}-${argv[3] ?? ""}.log`.replace(/-\.log$/, ".log")
  );
  const r = await runTool(tiupProgram(), args, { logFile, signal: o.signal, limitS });
  if (r.aborted) throw new RunError(`${o.what}: stopped: ${r.aborted}`);
  if (r.timedOut)
    throw new RunError(
      `${o.what}: \`${shellCommand(argv)}\` did not finish within ${limitS}s (raw output: ${logFile})`
    );
  if (r.code !== 0)
    throw new RunError(
      `${o.what}: \`${shellCommand(argv)}\` exited with code ${r.code}:
${lastLines(r.output)}
(raw output: ${logFile})`
    );
  return r.output;
}

// action/src/targets/tidb/deployments/cluster/endpoints.ts
var haproxyPort = (plan, d) => plan.profile.haproxy_port + d.index;
function clusterTidbServers(d) {
  return d.cluster.instances.filter((i) => i.role === "tidb").map((i) => ({ host: i.host, port: i.ports.port }));
}
function clusterStatus(d) {
  const of = (role, port2) => d.cluster.instances.filter((i) => i.role === role).map((i) => `${i.host}:${i.ports[port2]}`);
  return {
    tidb: of("tidb", "status_port"),
    tikv: of("tikv", "status_port"),
    pd: of("pd", "client_port"),
    tiflash: of("tiflash", "metrics_port")
  };
}

// action/src/targets/tidb/deployments/cluster/reapers.ts
var clusterReaper = {
  order: 0,
  describe: (e) => `run tiup cluster destroy ${e.path} --yes`,
  async reap(e, log) {
    const r = await runCommand("tiup", ["cluster", "destroy", e.path, "--yes"], { timeoutMs: 9e5 });
    if (r.code !== 0)
      throw new Error(
        `tiup cluster destroy ${e.path} failed (exit ${r.code}): ${(r.stderr || r.stdout).trim().split("\n").slice(-2).join(" ")}`
      );
    log(`reap: destroyed tiup cluster ${e.path}`);
  }
};

// action/src/targets/tidb/deployments/cluster/run.ts
import { mkdir as mkdir6 } from "node:fs/promises";
import { join as join12 } from "node:path";

// action/src/targets/tidb/haproxy.ts
var PROBE = 'i=0; while [ "$i" -lt "$2" ]; do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && exit 0; i=$((i+1)); sleep 0.1; done; exit 1';
var STILL_UP_MS = 500;
var CONFIG_ON_STDIN = 'c=$1; shift; printf "%s" "$c" | "$@"';
async function startHaproxy(o) {
  const where = `HAProxy on ${o.remote.host}`;
  const taken = [];
  try {
    return await startOnFreePort(
      async (k) => {
        const port2 = o.port + k;
        if (await accepts(o.remote, port2, `${o.logFile}.taken`)) {
          taken.push(port2);
          throw new Listening(`${where}: port ${port2} already accepts connections (something else listens)`);
        }
        return await startOn(o, port2, o.config.replace(/^(\s*bind\s+127\.0\.0\.1:)\d+/m, `$1${port2}`));
      },
      o.log,
      {
        again: (k, e) => `${where}: port ${o.port + k} ${e instanceof Listening ? "already accepts connections (something else listens)" : "was taken before HAProxy could bind it"}; trying ${o.port + k + 1}`,
        // found listening by the probe, or HAProxy's own failed bind
        retryable: (e) => e instanceof Listening || portTaken(e)
      }
    );
  } catch (e) {
    if (taken.length === PORT_TRIES)
      throw new RunError(
        `${where}: ports ${o.port}\u2013${o.port + PORT_TRIES - 1} already accept connections there (something else listens): set the profile's haproxy_port to a free port`
      );
    throw e;
  }
}
var Listening = class extends RunError {
};
async function accepts(remote, port2, logFile) {
  const probe = await runTool("bash", ["-c", PROBE, "probe", String(port2), "1"], {
    logFile,
    remote,
    limitS: 30
  });
  return probe.code === 0;
}
async function startOn(o, port2, config) {
  const ac = new AbortController();
  const run = runTool("sh", ["-c", CONFIG_ON_STDIN, "sh", config, ...o.command], {
    logFile: o.logFile,
    signal: ac.signal,
    remote: o.remote
  });
  const stop = async () => {
    ac.abort(new Error("teardown"));
    await run;
  };
  const readyS = o.readyS ?? 30;
  const probe = runTool("bash", ["-c", PROBE, "probe", String(port2), String(readyS * 10)], {
    logFile: `${o.logFile}.probe`,
    remote: o.remote,
    limitS: readyS + 30
  });
  const exited = (r) => new RunError(
    `HAProxy on ${o.remote.host} exited at once (code ${r.code}): ${r.output.trim().split("\n").slice(-3).join(" ")} (raw output: ${o.logFile})`
  );
  const first = await Promise.race([run.then((r) => ({ exited: r })), probe.then((r) => ({ probed: r }))]);
  if ("exited" in first) throw exited(first.exited);
  if (first.probed.code !== 0) {
    await stop();
    throw new RunError(
      `HAProxy on ${o.remote.host} did not accept connections on 127.0.0.1:${port2} within ${readyS}s (raw output: ${o.logFile})`
    );
  }
  const settled = await Promise.race([
    run.then((r) => ({ exited: r })),
    new Promise((res) => setTimeout(() => res({ up: true }), STILL_UP_MS))
  ]);
  if ("exited" in settled) throw exited(settled.exited);
  return { endpoint: { host: "127.0.0.1", port: port2 }, stop };
}

// action/src/targets/tidb/metrics.ts
var METRIC_QUERIES = {
  cpu_by_component: "sum by (job, instance) (rate(process_cpu_seconds_total[1m]))",
  memory_by_component: "sum by (job, instance) (process_resident_memory_bytes)",
  tidb_qps: "sum by (result) (rate(tidb_server_query_total[1m]))",
  tidb_query_p99_seconds: "histogram_quantile(0.99, sum by (le) (rate(tidb_server_handle_query_duration_seconds_bucket[1m])))",
  tikv_thread_cpu: "sum by (instance, name) (rate(tikv_thread_cpu_seconds_total[1m]))",
  tikv_grpc_p99_seconds: "histogram_quantile(0.99, sum by (le, type) (rate(tikv_grpc_msg_duration_seconds_bucket[1m])))",
  host_cpu_busy: '1 - avg by (instance) (rate(node_cpu_seconds_total{mode="idle"}[1m]))',
  host_disk_written_bytes: "sum by (instance) (rate(node_disk_written_bytes_total[1m]))",
  host_network_received_bytes: "sum by (instance) (rate(node_network_receive_bytes_total[1m]))"
};
var METRICS_FORMAT = "tiperf.prometheus-snapshot";
async function snapshotMetrics(o) {
  const step = o.stepS ?? Math.max(5, Math.ceil((o.end.getTime() - o.start.getTime()) / 1e3 / 1e3));
  const series = {};
  for (const [name, query] of Object.entries(METRIC_QUERIES)) {
    const params = new URLSearchParams({
      query,
      start: (o.start.getTime() / 1e3).toFixed(3),
      end: (o.end.getTime() / 1e3).toFixed(3),
      step: `${step}s`
    });
    try {
      const answer = await o.get(`${o.base}/api/v1/query_range?${params}`);
      series[name] = answer?.status === "success" ? { query, data: answer.data } : { query, error: answer?.error ?? "no success status" };
    } catch (e) {
      series[name] = { query, error: e.message };
    }
  }
  return {
    format: METRICS_FORMAT,
    prometheus: o.base,
    start: o.start.toISOString(),
    end: o.end.toISOString(),
    step_s: step,
    series
  };
}

// action/src/targets/tidb/tiup-output.ts
var ESC = String.fromCharCode(27);
var plain = (text) => text.replace(new RegExp(`${ESC}\\[[0-9;]*m`, "g"), "").replace(/\r/g, "");
function readPlayground(output) {
  const text = plain(output);
  const state = { ready: false, endpoints: [], versions: {} };
  for (const line of text.split("\n")) {
    const start = /^Start (\w+) instance:?\s*(\S+)?/.exec(line.trim());
    if (start?.[2]) state.versions[start[1]] = start[2];
    if (/TiDB Playground Cluster is started/.test(line)) state.ready = true;
    const conn = /^Connect TiDB:\s+.*?--host (\S+) --port (\d+)/.exec(line.trim());
    if (conn) state.endpoints.push({ host: conn[1], port: Number(conn[2]) });
    const failed = /^(TiDB|TiKV|PD|TiFlash) \S+ failed to start: .*/.exec(line.trim()) ?? /^(Error|panic): .*/.exec(line.trim()) ?? /^Playground bootstrapping failed.*/.exec(line.trim());
    if (failed && !state.failure) state.failure = failed[0];
  }
  return state;
}
function parseSince(since) {
  if (!since || !/^(\d+[dhms])+$/.test(since)) return void 0;
  let s = 0;
  for (const [, n, unit] of since.matchAll(/(\d+)([dhms])/g))
    s += Number(n) * { d: 86400, h: 3600, m: 60, s: 1 }[unit];
  return s;
}
function parseDisplayJson(output) {
  const text = plain(output);
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start)
    throw new Error(`tiup cluster display printed no JSON:
${text.trim().slice(-400)}`);
  const doc = JSON.parse(text.slice(start, end + 1));
  return {
    ...doc.cluster_meta?.cluster_name ? { name: doc.cluster_meta.cluster_name } : {},
    ...doc.cluster_meta?.cluster_version ? { version: doc.cluster_meta.cluster_version } : {},
    instances: (doc.instances ?? []).map((i) => {
      const uptime = parseSince(i.since);
      return {
        id: i.id,
        role: i.role,
        host: i.host,
        ports: i.ports,
        status: i.status,
        ...uptime !== void 0 ? { uptime_s: uptime } : {}
      };
    })
  };
}
var isUp = (status) => /^(Up|Healthy)\b/.test(status);
function notUp(display2) {
  return display2.instances.filter((i) => !isUp(i.status));
}
function restarted(before, after, elapsedS, slackS = 5) {
  const out = [];
  for (const a of after.instances) {
    const b = before.instances.find((i) => i.id === a.id);
    if (b?.uptime_s === void 0 || a.uptime_s === void 0) continue;
    if (a.uptime_s + slackS < b.uptime_s + elapsedS) out.push(a);
  }
  return out;
}
function editConfigOutcome(output) {
  const text = plain(output);
  if (/Nothing changed\./.test(text)) return "refused";
  if (/The file has nothing changed/.test(text)) return "same";
  return "changed";
}
function editConfigReason(output) {
  const lines = plain(output).split("\n").map((l) => l.trim()).filter(Boolean);
  const i = lines.findIndex((l) => l.startsWith("New topology could not be saved"));
  return (i >= 0 ? lines.slice(i, i + 2).join(" ") : lines.slice(-2).join(" ")) || "no reason given";
}

// action/src/targets/tidb/deployments/cluster/run.ts
function serverHosts(ctx, d) {
  const load = ctx.loadHost();
  if (!load) return [];
  const byHost = /* @__PURE__ */ new Map();
  for (const i of d.cluster.instances) {
    const port2 = i.ports[MAIN_PORT[i.role]];
    if (port2 !== void 0) byHost.set(i.host, [...byHost.get(i.host) ?? [], port2]);
  }
  return [...byHost].map(([host2, ports]) => ({ remote: { ...load, host: host2 }, ports }));
}
async function frontWithHaproxy(ctx, d, running) {
  const remote = ctx.loadHost();
  if (!ctx.plan.haproxy || !remote) return;
  const haproxy = await startHaproxy({
    remote,
    config: ctx.plan.files[`haproxy-${d.name}.cfg`],
    command: ctx.argv(stepKey.haproxy(d)),
    port: haproxyPort(ctx.plan, d),
    logFile: join12(ctx.rawDir, `haproxy-${d.name}.log`),
    log: ctx.log
  });
  running.endpoints = [haproxy.endpoint];
  const destroy = running.stop;
  running.stop = async () => {
    await haproxy.stop().catch(() => {
    });
    await destroy();
  };
  ctx.log(
    `HAProxy on ${remote.host}:${haproxy.endpoint.port} in front of ${clusterTidbServers(d).length} TiDB servers`
  );
}
async function keepMetrics(ctx, d) {
  const m = d.cluster.monitoring;
  if (!m) return;
  const file = join12(ctx.dir, "..", "monitoring", `${d.name}.json`);
  try {
    const snap = await snapshotMetrics({
      base: `http://${m.host}:${m.prometheus}`,
      start: ctx.startedAt,
      end: /* @__PURE__ */ new Date(),
      get: (url) => ctx.checks.getJson(url)
    });
    await mkdir6(join12(ctx.dir, "..", "monitoring"), { recursive: true });
    await writeAtomic(file, `${JSON.stringify(snap, null, 2)}
`);
    const kept = Object.values(snap.series).filter((x) => x.data).length;
    ctx.log(`monitoring: ${kept} of ${Object.keys(snap.series).length} series of ${d.name} kept in ${file}`);
  } catch (e) {
    ctx.log(`monitoring: the metrics of ${d.name} could not be kept: ${e.message}`);
  }
}
async function switchCluster(ctx, d, setup, r, signal, fresh) {
  const did = [];
  let restarted2 = false;
  if (ctx.plan.switching === "stop-start" && !r.up) {
    await stopOtherClusters(ctx, r, signal);
    await ctx.tiupRun(ctx.argv(stepKey.start(d)), `start ${d.name}`, signal);
    r.up = true;
    restarted2 = true;
    await display(ctx, d, signal, true);
    did.push(`cluster ${d.name} started (the other stopped)`);
  } else if (fresh && ctx.plan.switching === "stop-start") {
    await ctx.tiupRun(ctx.argv(stepKey.restart(d)), `restart ${d.name}`, signal);
    await display(ctx, d, signal, true);
    restarted2 = true;
    did.push(`cluster ${d.name} restarted`);
  }
  const cs = d.configSwitch;
  if (cs && r.applied !== setup.name) {
    if (cs.by === "online") {
      for (const k of cs.keys)
        for (const addr of r.status[k.role] ?? []) {
          const step = ctx.planned(stepKey.setConfig(setup, k.role, k.key, addr)).run;
          await ctx.checks.postJson(step.post, step.body).catch((e) => {
            throw new RunError(`variant ${setup.name}: ${k.role} ${addr} refused ${k.key}: ${e.message}`);
          });
        }
      did.push(
        `variant ${setup.name} applied online (${cs.keys.map((k) => k.key).join(", ") || "target.sql only"})`
      );
    } else {
      const file = join12(ctx.dir, setup.topologyFile);
      const out = await ctx.tiupRun(
        ctx.argv(stepKey.editConfig(d, setup)),
        `variant ${setup.name}: edit-config`,
        signal
      );
      const outcome = editConfigOutcome(out);
      if (outcome === "refused")
        throw new RunError(
          `variant ${setup.name}: tiup refused the topology ${file} ("Nothing changed.", exit 0): ${editConfigReason(out)}`
        );
      if (outcome === "changed") {
        await ctx.tiupRun(ctx.argv(stepKey.reload(d, setup)), `variant ${setup.name}: reload`, signal);
        restarted2 = true;
      }
      did.push(`variant ${setup.name} applied by reloading ${cs.roles.join(", ")}`);
    }
    r.applied = setup.name;
    await ctx.checkConfig(setup, r);
  }
  if (fresh && !restarted2 && cs?.by === "reload") {
    await ctx.tiupRun(
      ctx.argv(stepKey.restart(d, cs.roles)),
      `variant ${setup.name}: restart ${cs.roles.join(", ")}`,
      signal
    );
    await display(ctx, d, signal, true);
    await ctx.checkConfig(setup, r);
    did.push(`${cs.roles.join(", ")} of ${d.name} restarted (variant ${setup.name} was in already)`);
  }
  return did.length ? did.join("; ") : void 0;
}
async function deployCluster(ctx, d, signal) {
  const setup = ctx.plan.variants.find((v) => v.deployment === d.index);
  const ephemeral = Boolean(ctx.machines);
  const forget = ephemeral ? async () => {
  } : await record({ resource: "cluster", what: d.name, path: d.name }).catch(() => async () => {
  });
  let destroyed;
  const stop = () => {
    destroyed ??= (async () => {
      await ctx.tiupRun(
        ctx.argv(stepKey.destroy(d)),
        `destroy ${d.name}`,
        new AbortController().signal,
        ephemeral ? 600 : 900
      );
      await forget();
    })();
    return destroyed;
  };
  const running = {
    deployment: d,
    endpoints: clusterTidbServers(d),
    sql: clusterTidbServers(d)[0],
    status: {
      tidb: d.cluster.instances.filter((i) => i.role === "tidb").map((i) => `${i.host}:${i.ports.status_port}`),
      tikv: d.cluster.instances.filter((i) => i.role === "tikv").map((i) => `${i.host}:${i.ports.status_port}`),
      pd: d.cluster.instances.filter((i) => i.role === "pd").map((i) => `${i.host}:${i.ports.client_port}`),
      tiflash: d.cluster.instances.filter((i) => i.role === "tiflash").map((i) => `${i.host}:${i.ports.metrics_port}`)
    },
    died: new Promise(() => {
    }),
    stop,
    applied: setup.name,
    up: false,
    loaded: /* @__PURE__ */ new Set(),
    users: 0,
    restarts: 0,
    counting: []
  };
  try {
    for (const [role, binpath] of Object.entries(d.binpaths))
      if (findTool(binpath) === void 0)
        throw new RunError(
          `variant ${setup.name}: target.binpath of ${role}, ${binpath}: not an executable file`
        );
    await ctx.tiupRun(ctx.argv(stepKey.deploy(d)), `deploy ${d.name}`, signal);
    for (const role of Object.keys(d.binpaths)) {
      const pack = ctx.argv(stepKey.pack(d, role));
      const packed = await runCommand(pack[0], pack.slice(1), { timeoutMs: 3e5 });
      if (packed.code !== 0)
        throw new RunError(`cannot pack the ${role} build for tiup cluster patch: ${packed.stderr.trim()}`);
      await ctx.tiupRun(ctx.argv(stepKey.patch(d, role)), `patch ${role} of ${d.name}`, signal);
      ctx.log(`cluster ${d.name}: every ${role} runs ${d.binpaths[role]}`);
    }
    await ctx.tiupRun(ctx.argv(stepKey.start(d)), `start ${d.name}`, signal);
    running.up = true;
    await display(ctx, d, signal, true);
    await frontWithHaproxy(ctx, d, running);
  } catch (e) {
    await stop().catch((err) => ctx.log(`teardown: ${err.message}`));
    throw e;
  }
  if (ctx.plan.switching === "stop-start") {
    await stopOtherClusters(ctx, running, signal);
  }
  return running;
}
async function stopOtherClusters(ctx, r, signal) {
  for (const other of ctx.running.values())
    if (other !== r && other.up && other.deployment.form === "cluster") {
      await ctx.tiupRun(ctx.argv(stepKey.stop(other.deployment)), `stop ${other.deployment.name}`, signal);
      other.up = false;
    }
}
async function display(ctx, d, signal, allUp) {
  const out = await ctx.tiupRun(ctx.argv(stepKey.display(d)), `display ${d.name}`, signal, 300);
  const display2 = parseDisplayJson(out);
  const down = notUp(display2);
  if (allUp && down.length)
    throw new RunError(
      `cluster ${d.name}: ${down.map((i) => `${i.role} ${i.id} is ${i.status}`).join("; ")}`
    );
  return display2;
}
async function watch(ctx, setup, d) {
  const signal = new AbortController().signal;
  const before = await display(ctx, d, signal, true);
  const started2 = Date.now();
  return async () => {
    const after = await display(ctx, d, signal, false);
    const down = notUp(after).map((i) => `${i.role} ${i.id} on ${i.host} is ${i.status}`);
    const again = restarted(before, after, (Date.now() - started2) / 1e3).map(
      (i) => `${i.role} ${i.id} on ${i.host} restarted during the cell (up ${i.uptime_s}s; systemd brought it back)`
    );
    const problems = [...down, ...again];
    return problems.length ? `cluster ${d.name} (variant ${setup.name}): ${problems.join("; ")}` : void 0;
  };
}
var clusterRestarts = {
  seconds: 120,
  async restart(ctx, d, setup, r, state, signal) {
    if (r.restarts > state.seen) {
      state.seen = r.restarts;
      return `cluster ${d.name} restarted already for this block (shared with ${d.variants.join(", ")})`;
    }
    const before = await display(ctx, d, signal, true);
    await ctx.tiupRun(ctx.argv(stepKey.restart(d)), `restart ${d.name}`, signal);
    const after = await display(ctx, d, signal, true);
    r.up = true;
    state.seen = ++r.restarts;
    await ctx.checkConfig(ctx.appliedSetup(setup, r), r);
    const uptime = (x) => Math.min(...x.instances.map((i) => i.uptime_s ?? Number.POSITIVE_INFINITY));
    return `cluster ${d.name} restarted (shortest uptime ${uptime(before)}s \u2192 ${uptime(after)}s)`;
  }
};
var clusterRuntime = {
  targetKind: "tidb-cluster",
  build: (d) => d.binpaths.tidb,
  start: (ctx, d, _setup, signal) => deployCluster(ctx, d, signal),
  state: (d) => `tiup cluster ${d.name}: see \`tiup cluster display ${d.name}\``,
  watch: (ctx, setup, d) => watch(ctx, setup, d),
  onHosts: {
    hosts: serverHosts,
    // monitoring: true — the run window's metrics are kept before the cluster goes
    beforeStop: async (ctx, d, r) => {
      if (d.cluster.monitoring && r.up) await keepMetrics(ctx, d);
    }
  }
};

// action/src/targets/tidb/deployments/cluster/types.ts
var isCluster = (d) => d.form === "cluster";

// action/src/targets/tidb/deployments/cluster/index.ts
var ONLINE_SWITCH_S = 2;
var RELOAD_S_PER_INSTANCE = 60;
var STOP_START_S = 120;
function haproxyConfig(endpoints, port2, name) {
  return `# HAProxy in front of the TiDB servers of ${name}, generated by tiperf
global
    # about two file descriptors per connection: within a login session's usual limits
    maxconn 4096

defaults
    mode tcp
    timeout connect 10s
    timeout client 1h
    timeout server 1h

listen tidb
    # the load tools run beside it: TiDB's password-less root stays off the network
    bind 127.0.0.1:${port2}
    balance leastconn
    option tcp-check
${endpoints.map((e, i) => `    server tidb-${i + 1} ${e.host}:${e.port} check inter 2000 rise 2 fall 3`).join("\n")}
`;
}
function sshFlags(profile) {
  const ssh = profile.ssh;
  return [
    "--user",
    ssh?.user ?? "tidb",
    ...ssh?.identity_file ? ["-i", expandHome(ssh.identity_file)] : []
  ];
}
function proxyFlags(profile) {
  const proxy = profile.ssh?.proxy;
  if (!proxy) return [];
  const key = proxy.identity_file ?? profile.ssh?.identity_file;
  return [
    "--ssh-proxy-host",
    proxy.host,
    "--ssh-proxy-user",
    proxy.user ?? profile.ssh?.user ?? "tidb",
    "--ssh-proxy-port",
    String(proxy.port),
    ...key ? ["--ssh-proxy-identity-file", expandHome(key)] : []
  ];
}
var rolling = (sub, d, roles) => [
  "tiup",
  "cluster",
  sub,
  d.name,
  ...roles.length ? ["-R", roles.join(",")] : [],
  "--yes",
  ...d.proxyFlags
];
var tiupCluster = {
  deploy: (d, file, profile) => [
    "tiup",
    "cluster",
    "deploy",
    d.name,
    d.version,
    file,
    "--yes",
    ...sshFlags(profile),
    ...d.proxyFlags
  ],
  start: (d) => ["tiup", "cluster", "start", d.name, ...d.proxyFlags],
  stop: (d) => ["tiup", "cluster", "stop", d.name, "--yes", ...d.proxyFlags],
  display: (d) => [
    "tiup",
    "cluster",
    "display",
    d.name,
    "--format",
    "json",
    "--uptime",
    ...d.proxyFlags
  ],
  editConfig: (d, file) => [
    "tiup",
    "cluster",
    "edit-config",
    d.name,
    "--topology-file",
    file,
    "--yes"
  ],
  reload: (d, roles = []) => rolling("reload", d, roles),
  restart: (d, roles = []) => rolling("restart", d, roles),
  destroy: (d) => ["tiup", "cluster", "destroy", d.name, "--yes", ...d.proxyFlags],
  /** A build replaces a role's release binary before the first start (the cluster is stopped). */
  patch: (d, file, role) => [
    "tiup",
    "cluster",
    "patch",
    d.name,
    file,
    "-R",
    role,
    "--offline",
    "--yes",
    ...d.proxyFlags
  ]
};
var patchPackage = (binpath, file, role) => [
  "tar",
  "--create",
  "--gzip",
  "--dereference",
  "--file",
  file,
  "--transform",
  `s|.*|${BUILD_ROLES[role]}|`,
  "--directory",
  dirname3(binpath),
  basename4(binpath)
];
function switchSteps(plan, d, v, own, add) {
  const checks = plan.profile.ssh?.proxy ? "load host" : "runner";
  const cs = d.configSwitch;
  const o = own ? { variant: v.name } : {};
  const when = `whenever another variant of ${d.name} was applied`;
  if (cs.by === "online") {
    const status = clusterStatus(d);
    for (const k of cs.keys) {
      const value = v.configKeys.find((c) => c.role === k.role && c.key === k.key)?.value;
      for (const addr of status[k.role])
        add(
          stepKey.setConfig(v, k.role, k.key, addr),
          "switch",
          { post: configUrl(k.role, addr), body: setConfigBody(k.key, value) },
          `variant ${v.name}, ${when}: what SET CONFIG ${k.role} \`${k.key}\` = ${JSON.stringify(value)} sends to each instance (an error fails the run, where SET CONFIG would only warn); no restart`,
          { ...o, where: checks }
        );
    }
    return;
  }
  add(
    stepKey.editConfig(d, v),
    "switch",
    { command: tiupCluster.editConfig(d, `${PLAN_DIR}/${v.topologyFile}`) },
    `variant ${v.name}, ${when}; "Nothing changed." fails the run`,
    o
  );
  add(
    stepKey.reload(d, v),
    "switch",
    { command: tiupCluster.reload(d, cs.roles) },
    `restarts only ${cs.roles.join(", ")} (${cs.why.join("; ")}); then SHOW CONFIG confirms variant ${v.name}'s values`,
    o
  );
}
var clusterForm = {
  name: "cluster",
  reapers: { cluster: clusterReaper },
  deploySeconds: 300,
  restarts: clusterRestarts,
  plan(o) {
    const { profile } = o;
    const groups = [];
    for (const v of o.variants) {
      const probe = buildCluster({ name: "probe", index: 0, profile, target: v.target });
      const key = `${v.target.version}
${JSON.stringify(binpathsOf(v.target))}
${JSON.stringify(topologyObject(probe, false))}
${JSON.stringify(v.target.split ?? null)}`;
      const g = groups.find((x) => x.key === key);
      if (g) g.members.push(v);
      else groups.push({ key, members: [v] });
    }
    const deployments = [];
    const variants = [];
    groups.forEach((g, index) => {
      const name = groups.length > 1 ? `${o.prefix}-${index + 1}` : o.prefix;
      let deployed;
      const setups = [];
      for (const v of g.members) {
        const cluster = buildCluster({ name, index, profile, target: v.target });
        deployed ??= cluster;
        const file = `topology-${v.name}.yaml`;
        o.files[file] = topologyYaml(cluster);
        setups.push(o.setupOf(v, index, file));
      }
      variants.push(...setups);
      deployments.push({
        form: "cluster",
        name,
        index,
        version: g.members[0]?.target.version ?? "",
        cluster: deployed,
        variants: g.members.map((m) => m.name),
        proxyFlags: proxyFlags(profile),
        ...setups.length > 1 ? { configSwitch: configSwitchOf(setups) } : {},
        binpaths: g.members[0] ? binpathsOf(g.members[0].target) : {}
      });
    });
    checkTopology(
      deployments.map((d) => d.cluster),
      o.profileFile
    );
    const loadHost = profile.hosts?.load?.[0];
    if (!profile.haproxy || !loadHost) return { deployments, variants };
    for (const d of deployments)
      o.files[`haproxy-${d.name}.cfg`] = haproxyConfig(clusterTidbServers(d), haproxyPort(o, d), d.name);
    return {
      deployments,
      variants,
      haproxy: { host: loadHost, port: profile.haproxy_port, file: "haproxy-<cluster>.cfg" }
    };
  },
  switching: (_variants, deployments) => deployments.length > 1 ? "stop-start" : deployments[0]?.configSwitch?.by ?? "none",
  turns: {
    switchTo: switchCluster,
    grouped: (switching, deployments) => switching === "stop-start" || deployments.some((d) => d.configSwitch?.by === "reload"),
    switchSeconds(plan) {
      if (plan.switching === "stop-start") return STOP_START_S;
      const d = plan.deployments[0];
      if (!d?.configSwitch) return 0;
      if (d.configSwitch.by === "online") return ONLINE_SWITCH_S;
      const roles = d.configSwitch.roles;
      return 30 + RELOAD_S_PER_INSTANCE * d.cluster.instances.filter((i) => roles.includes(i.role)).length;
    },
    switchingText(plan) {
      const d = plan.deployments[0];
      const cs = d && isCluster(d) ? d.configSwitch : void 0;
      if (plan.switching === "online" && cs)
        return cs.keys.length ? `online, before a cell whenever the variant changes: ${cs.keys.map((k) => `${k.role} ${k.key}`).join(", ")} set on the running components as SET CONFIG does (no restart), then read back` : "target.sql before a cell whenever the variant changes (no config differs)";
      if (plan.switching === "reload" && cs?.by === "reload")
        return `edit-config + reload of ${cs.roles.join(", ")} only (${cs.why.join("; ")}): a switch restarts them, so each variant runs a block's cells as a group on a freshly switched instance`;
      if (plan.switching === "stop-start")
        return "one cluster per version or topology, only the measured one running: each variant runs a block's cells as a group on a freshly started cluster";
      return void 0;
    },
    switchIn(plan, d, v, add) {
      if (!d.configSwitch || d.variants[0] === v.name) return false;
      switchSteps(plan, d, v, true, add);
      return true;
    }
  },
  loadEndpoints: (plan, d) => plan.haproxy ? [{ host: "127.0.0.1", port: haproxyPort(plan, d) }] : clusterTidbServers(d),
  statusAddresses: clusterStatus,
  startSteps(plan, d, v, add) {
    add(
      stepKey.deploy(d),
      "start",
      { command: tiupCluster.deploy(d, `${PLAN_DIR}/${v.topologyFile}`, plan.profile) },
      `variants ${d.variants.join(", ")}`,
      { variant: v.name }
    );
    for (const [role, binpath] of Object.entries(d.binpaths)) {
      const file = `${PLAN_DIR}/patch-${d.name}-${role}.tar.gz`;
      add(
        stepKey.pack(d, role),
        "start",
        { command: patchPackage(binpath, file, role) },
        `target.binpath of ${role}: the build as ${BUILD_ROLES[role]} in the package tiup patches with`,
        { variant: v.name }
      );
      add(
        stepKey.patch(d, role),
        "start",
        { command: tiupCluster.patch(d, file, role) },
        `every ${role} of ${d.name} runs the build (before its first start)`,
        { variant: v.name }
      );
    }
    add(stepKey.start(d), "start", { command: tiupCluster.start(d) }, void 0, { variant: v.name });
    add(
      stepKey.display(d),
      "start",
      { command: tiupCluster.display(d) },
      "every instance Up; uptimes recorded",
      {
        variant: v.name
      }
    );
    if (plan.haproxy)
      add(
        stepKey.haproxy(d),
        "start",
        { command: ["haproxy", "-db", "-L", `tiperf-haproxy-${d.name}`, "-f", "/dev/stdin"] },
        `on the load host, ${PLAN_DIR}/haproxy-${d.name}.cfg on its stdin over SSH (no file is written there; -L names the process); the load tools connect to 127.0.0.1:${haproxyPort(plan, d)} there once it listens (where another program holds that port, the next free one of ${PORT_TRIES}, said in the log)`,
        { variant: v.name, where: "load host" }
      );
    if (plan.switching === "stop-start") {
      for (const other of plan.deployments)
        if (other.index < d.index && isCluster(other))
          add(
            stepKey.stop(other),
            "start",
            { command: tiupCluster.stop(other) },
            `waits stopped while ${d.name}'s variants are measured`,
            { variant: v.name }
          );
    }
  },
  blockSteps(plan, d, add) {
    const first = plan.variants.find((v) => v.name === d.variants[0]);
    if (d.configSwitch) switchSteps(plan, d, first, false, add);
    if (d.configSwitch?.by === "reload")
      add(
        stepKey.restart(d, d.configSwitch.roles),
        "switch",
        { command: tiupCluster.restart(d, d.configSwitch.roles) },
        `before a group of cells whose variant is applied already: its ${d.configSwitch.roles.join(", ")} fresh as after a switch`
      );
    if (plan.switching === "stop-start") {
      add(
        stepKey.stop(d),
        "switch",
        { command: tiupCluster.stop(d) },
        "while the other cluster's variants are measured"
      );
      add(
        stepKey.start(d),
        "switch",
        { command: tiupCluster.start(d) },
        `before a group of cells of variant ${d.variants.join(", ")}`
      );
    }
    add(
      stepKey.display(d),
      "cell",
      { command: tiupCluster.display(d) },
      "before and after every cell: a Down instance or a restart (uptime reset) fails the cell"
    );
    add(
      stepKey.restart(d),
      "restart",
      { command: tiupCluster.restart(d) },
      plan.grouped ? "before a group of cells whose cluster is running already: fresh as after a switch" : "before each block after the first (compare.blocks), once for the variants sharing it"
    );
  },
  teardownSteps(_plan, d, add) {
    add(
      stepKey.destroy(d),
      "teardown",
      { command: tiupCluster.destroy(d) },
      "always: success, failure, cancel, SIGTERM; `tiperf reap` if tiperf was killed"
    );
  },
  records: (d) => [join13(tiupHome(), "storage", "cluster", "clusters", d.name)],
  run: clusterRuntime
};

// action/src/targets/tidb/deployments/machines.ts
function createdMachines(stack, o) {
  return {
    onto: o.onto,
    cost: () => measuredCost({
      profile: o.profile,
      perHour: o.perHour,
      asOf: o.asOf,
      startedAt: stack.startedAt,
      endedAt: stack.endedAt
    }),
    destroy: () => stack.destroy(),
    get gone() {
      return stack.endedAt !== void 0;
    }
  };
}

// action/src/targets/tidb/deployments/release.ts
function releaseTarget(provider) {
  return (t, profileFile) => {
    if (!t.version)
      return `target.version: ${profileFile} (provider ${provider}) deploys PD and TiKV of a release: name it (like v8.5.0), even with a binpath`;
    if (t.resources)
      return `target.resources limits a private tidb-server (provider local); ${profileFile} has provider ${provider}: use roles.tidb.resource_control`;
    return void 0;
  };
}
function noInstanceTypes(p, issue, clouds) {
  for (const role of ROLES)
    if (p.roles[role].instance_type !== void 0)
      issue(
        ["roles", role, "instance_type"],
        `belongs to a cloud provider (${clouds.join(", ")}); hosts come from the profile here`
      );
}

// action/src/targets/tidb/deployments/cloud/index.ts
function cloudDeployer(cloud) {
  return {
    provider: cloud,
    about: `a tiup cluster on machines tiperf creates on ${cloud} (and destroys)`,
    sections: [cloud],
    servers: "tiup",
    form: clusterForm,
    checkProfile(p, issue) {
      if (!p[cloud])
        issue([cloud], `provider ${cloud} needs a ${cloud} section (region, load.instance_type)`);
      if (p.hosts) issue(["hosts"], `provider ${cloud} creates its hosts; remove hosts`);
      if (p.ssh?.identity_file)
        issue(
          ["ssh", "identity_file"],
          `provider ${cloud} generates a key pair per run; remove identity_file`
        );
      for (const role of ROLES) {
        const r = p.roles[role];
        if (r.instances)
          issue(["roles", role, "instances"], `provider ${cloud} places one instance per machine; use count`);
        const count = r.count ?? 0;
        if (role !== "tiflash" && count === 0)
          issue(["roles", role, "count"], `a TiDB cluster needs at least one ${role} instance`);
        if (count > 0 && r.instance_type === void 0)
          issue(["roles", role, "instance_type"], `roles.${role}.count is ${count}: name the instance type`);
      }
    },
    checkTarget: releaseTarget(cloud),
    machines: {
      cloudOf: (p) => cloudOfProfile(p)?.name,
      plan(p, o) {
        const provider = cloudOfProfile(p);
        const ask = askOf(p);
        const estimate = cloudEstimate(p, o.matrixSeconds);
        const tags = plannedTags(ask.settings.ttl, o.runId);
        const about = cloudPlanText(provider, ask, estimate, tags, o.provisioned ?? false).trimEnd();
        const refusals = budgetRefusals(ask, estimate, o.profileFile, provider.name);
        return { about, refusals, seconds: 0 };
      },
      // until `up` returns their addresses, each machine's name stands in
      placeholders: (p) => withHosts(p, placeholderHosts(cloudOfProfile(p), askOf(p))),
      async create(p, o) {
        const cluster = await provisionCluster({
          provider: p.provider,
          ask: askOf(p),
          runId: o.runId,
          runDir: o.runDir,
          forget: o.forget,
          ...o.shard ? { shard: o.shard } : {},
          log: o.log,
          signal: o.signal
        });
        const estimate = cloudEstimate(p, 0);
        return createdMachines(cluster, {
          profile: p.name,
          perHour: estimate.perHour,
          asOf: estimate.priceTable.as_of,
          onto: (q) => withHosts(q, cluster.hosts)
        });
      }
    }
  };
}
var CLOUD_DEPLOYERS = Object.fromEntries(
  Object.keys(CLOUDS).map((name) => [name, cloudDeployer(name)])
);

// action/src/targets/tidb/deployments/endpoint/index.ts
var ENDPOINT = {
  provider: "endpoint",
  servers: "borrowed",
  about: "an existing TiDB at a host and port (tiperf owns only a database of its own there)",
  sections: ["endpoint"],
  checkProfile(p, issue) {
    if (!p.endpoint) issue(["endpoint"], "provider endpoint needs an endpoint section (host, port, user)");
    for (const key of ["hosts", "ssh"])
      if (p[key])
        issue(
          [key],
          `an endpoint is a TiDB that already runs: tiperf reaches it at endpoint.host; remove ${key}`
        );
    if (p.haproxy) issue(["haproxy"], "an endpoint's load balancing is its own: remove haproxy");
    if (p.monitoring) issue(["monitoring"], "tiperf deploys no monitoring on an endpoint: remove monitoring");
    if (Object.keys(p.server_configs).length)
      issue(["server_configs"], "tiperf never reconfigures an endpoint: remove server_configs");
    for (const role of ROLES)
      if ((p.roles[role].count ?? 0) > 0 || p.roles[role].instances)
        issue(["roles", role], "an endpoint's topology is its own: tiperf deploys nothing there");
  }
};

// action/src/targets/tidb/deployments/hosts/index.ts
var HOSTS = {
  provider: "hosts",
  about: "a tiup cluster on the profile's hosts",
  servers: "tiup",
  form: clusterForm,
  checkProfile(p, issue) {
    noInstanceTypes(p, issue, Object.keys(CLOUDS));
    for (const role of ROLES) {
      const r = p.roles[role];
      if (r.instances && r.count !== void 0 && r.count !== r.instances.length)
        issue(["roles", role, "count"], `count ${r.count} but ${r.instances.length} instances listed`);
      const count = r.instances?.length ?? r.count ?? 0;
      if (role !== "tiflash" && count === 0)
        issue(["roles", role, "count"], `a TiDB cluster needs at least one ${role} instance`);
      if (count > 0 && !r.instances && !p.hosts?.[role]?.length)
        issue(["hosts", role], `roles.${role}.count is ${count}: list the ${role} hosts (hosts.${role})`);
    }
    if (p.haproxy && !p.hosts?.load?.length)
      issue(["hosts", "load"], "haproxy: true needs a load host (hosts.load) to run on");
    if (p.ssh?.proxy && !p.hosts?.load?.length)
      issue(
        ["hosts", "load"],
        "ssh.proxy needs a load host (hosts.load): behind a bastion, tiperf's SQL and status checks run there"
      );
  },
  checkTarget: releaseTarget("hosts")
};

// action/src/cloud/kubernetes.ts
import { chmod, mkdir as mkdir7, writeFile as writeFile4 } from "node:fs/promises";
import { join as join14 } from "node:path";
function kubernetesCloudOf(name) {
  const cloud = KUBERNETES_CLOUDS[name];
  if (!cloud)
    throw new Error(`no Kubernetes cloud ${name} (clouds: ${Object.keys(KUBERNETES_CLOUDS).join(", ")})`);
  return cloud;
}
async function provisionKubernetes(o) {
  const { ask, log } = o;
  const cloud = kubernetesCloudOf(o.cloud);
  const settings2 = ask.settings;
  const dir = join14(o.runDir, "cloud");
  await mkdir7(dir, { recursive: true });
  const tags = tagsNow(settings2, o.runId);
  const rec = stackRecord({
    ask,
    dir,
    provider: o.cloud,
    capability: "kubernetes",
    runId: o.runId,
    forget: [],
    ...o.shard ? { shard: o.shard } : {}
  });
  log(
    `cloud: ${cloud.product} on ${o.cloud} ${settings2.region}: stack ${rec.name}, expires ${tags["tiperf:expires-at"]}`
  );
  const forget = await recordStack(rec);
  const program = await cloud.program({ ask, labels: cloud.labels(tags) });
  let stack;
  const created = {
    kubeconfig: join14(dir, "kubeconfig"),
    context: "",
    stackName: rec.name,
    startedAt: Date.now(),
    destroy: async () => {
      await stack?.destroy();
      created.endedAt ??= Date.now();
      await forget();
    }
  };
  try {
    stack = await CloudStack.open(stackOptions(rec, log, program));
    const outputs = await stack.up(o.signal);
    const { kubeconfig, context } = outputs;
    if (typeof kubeconfig !== "string" || !kubeconfig || typeof context !== "string" || !context)
      throw new RunError(
        `cloud: the stack's outputs "kubeconfig" and "context" are not both text (got ${Object.keys(outputs).join(", ") || "no outputs"})`
      );
    await writeFile4(created.kubeconfig, kubeconfig, { mode: 384 });
    await chmod(created.kubeconfig, 384);
    created.context = context;
    log(
      `cloud: ${cloud.product} cluster up in ${Math.round((Date.now() - created.startedAt) / 1e3)}s (context ${context}; kubeconfig <run>/cloud/kubeconfig)`
    );
  } catch (e) {
    await created.destroy().catch((err) => log(`teardown: ${err.message}`));
    throw e;
  }
  return created;
}

// action/src/targets/tidb/deployments/kubernetes/cluster.ts
var POOL_ROLES = ["pd", "tikv", "tidb"];
function createdBy(p) {
  const sections = p;
  for (const cloud of Object.values(KUBERNETES_CLOUDS)) {
    const settings2 = sections[cloud.name];
    if (settings2) return { cloud, settings: settings2 };
  }
  return void 0;
}
var GI = { Ki: 1 / 1024 ** 2, Mi: 1 / 1024, Gi: 1, Ti: 1024, Pi: 1024 ** 2 };
var DEC = {
  k: 1e3 / 2 ** 30,
  M: 1e6 / 2 ** 30,
  G: 1e9 / 2 ** 30,
  T: 1e12 / 2 ** 30
};
function quantityGb(q) {
  const m = /^(\d+(?:\.\d+)?)([KMGTP]i|[kMGT])?$/.exec(q);
  if (!m) return 0;
  const n = Number(m[1]);
  const unit = m[2];
  return unit ? n * (GI[unit] ?? DEC[unit] ?? 0) : n / 2 ** 30;
}
function kubernetesAsk(p) {
  const created = createdBy(p);
  if (!created) throw new Error(`profile ${p.name}: no cloud section creates its Kubernetes cluster`);
  const k = p.kubernetes;
  const pools = POOL_ROLES.map((role) => ({
    name: role,
    count: p.roles[role].count ?? 0,
    machineType: p.roles[role].instance_type
  }));
  if (k.load) pools.push({ name: "load", count: 1, machineType: k.load.instance_type });
  const volumesGb = (p.roles.pd.count ?? 0) * quantityGb(k.storage.pd) + (p.roles.tikv.count ?? 0) * quantityGb(k.storage.tikv);
  return { name: p.name, pools, volumesGb: Math.ceil(volumesGb), settings: created.settings };
}
function kubeSettingsOf(p) {
  const k = p.kubernetes;
  const created = createdBy(p);
  if (!created) return k;
  const pool = created.cloud.poolSelector;
  return {
    ...k,
    node_selector: { pd: pool("pd"), tikv: pool("tikv"), tidb: pool("tidb") },
    ...k.load ? { load: { ...k.load, node_selector: pool("load") } } : {}
  };
}

// action/src/kubernetes/pod.ts
var statusOf = (pod) => pod?.status ?? {};
var ended = (pod) => ["Succeeded", "Failed"].includes(statusOf(pod).phase ?? "");
var started = (pod) => ended(pod) || statusOf(pod).phase === "Running";
function podWaiting(pod) {
  if (!pod) return "no such pod";
  const st = statusOf(pod);
  const waiting = st.containerStatuses?.find((c) => c.state?.waiting)?.state?.waiting;
  const unscheduled = st.conditions?.find((c) => c.type === "PodScheduled" && c.status === "False");
  const why = waiting ? `${waiting.reason ?? "waiting"}${waiting.message ? `: ${waiting.message}` : ""}` : unscheduled ? `${unscheduled.reason ?? "not scheduled"}${unscheduled.message ? `: ${unscheduled.message}` : ""}` : "";
  return `phase ${st.phase ?? "unknown"}${why ? `, ${why}` : ""}`;
}
function exitCodeOf(pod) {
  const t = statusOf(pod).containerStatuses?.find((c) => c.state?.terminated)?.state?.terminated;
  return t?.exitCode;
}
var PodLauncher = class {
  constructor(o) {
    this.o = o;
  }
  o;
  where = "pod";
  n = 0;
  current;
  describe() {
    return `pod ${this.current ?? `${this.o.prefix}-${this.n + 1}`} in namespace ${this.o.namespace}`;
  }
  cores() {
    return this.o.cores;
  }
  async run(argv, r) {
    const c = this.o.client();
    const name = `${this.o.prefix}-${++this.n}`;
    this.current = name;
    const path = `/api/v1/namespaces/${this.o.namespace}/pods/${name}`;
    const command = r.stopAfterS === void 0 ? argv : ["timeout", "--preserve-status", "-s", "INT", String(r.stopAfterS), ...argv];
    await c.create(`/api/v1/namespaces/${this.o.namespace}/pods`, this.o.manifest(name, command));
    try {
      await c.waitFor(path, started, {
        timeoutMs: this.o.startTimeoutMs,
        everyMs: 500,
        signal: r.signal,
        what: `load pod ${name} in ${this.o.namespace} running`,
        describe: podWaiting
      });
      if (r.signal.aborted) return { code: null, signal: "SIGTERM" };
      await c.stream(`${path}/log?container=load&follow=true`, r.onData, { signal: r.signal }).catch((e) => {
        if (!r.signal.aborted) throw e;
      });
      if (r.signal.aborted) return { code: null, signal: "SIGTERM" };
      const pod = await c.waitFor(path, ended, {
        timeoutMs: 6e4,
        everyMs: 250,
        what: `load pod ${name} finished`,
        describe: podWaiting
      });
      const code = exitCodeOf(pod);
      if (code === void 0)
        throw new RunError(`load pod ${name}: ended (${podWaiting(pod)}) without an exit code`);
      return { code, signal: null };
    } finally {
      this.current = void 0;
      await c.remove(`${path}?gracePeriodSeconds=${r.signal.aborted ? 1 : 0}`).catch(() => void 0);
    }
  }
};

// action/src/targets/tidb/deployments/kubernetes/manifests.ts
var import_yaml3 = __toESM(require_dist(), 1);

// action/src/kubernetes/client.ts
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
var MANAGED_BY = "app.kubernetes.io/managed-by";
var MANAGER = "tiperf";
var RUN_LABEL = "tiperf.io/run-id";
var EXPIRES = "tiperf.io/expires-at";
var KubeError = class extends RunError {
  constructor(status, method, path, detail) {
    super(`Kubernetes API ${method} ${path}: HTTP ${status}: ${detail}`);
    this.status = status;
    this.method = method;
    this.path = path;
  }
  status;
  method;
  path;
};
function statusMessage(text) {
  try {
    const message = JSON.parse(text)?.message;
    if (message) return message;
  } catch {
  }
  return text.trim().slice(0, 300);
}
var KubeClient = class {
  constructor(ctx) {
    this.ctx = ctx;
    this.token = ctx.token;
    if (ctx.token) addSecret(ctx.token);
  }
  ctx;
  token;
  tokenUntil = 0;
  /** A bearer token from the context's exec plugin (GKE's), cached until it expires. */
  async bearer() {
    const exec = this.ctx.exec;
    if (!exec || this.token && Date.now() < this.tokenUntil) return this.token;
    const r = await runCommand(exec.command, exec.args, { timeoutMs: 6e4, env: childEnv(exec.env) });
    let cred = {};
    try {
      cred = JSON.parse(r.stdout);
    } catch {
    }
    const token = cred.status?.token;
    if (r.code !== 0 || !token)
      throw new RunError(
        `kubeconfig ${this.ctx.file}, context ${this.ctx.context}: the credential plugin ${exec.command} gave no token (exit ${r.code}): ${(r.stderr || r.stdout).trim().slice(0, 300)}`
      );
    addSecret(token);
    this.token = token;
    const until = cred.status?.expirationTimestamp ? Date.parse(cred.status.expirationTimestamp) : Number.NaN;
    this.tokenUntil = Number.isNaN(until) ? Date.now() + 5 * 6e4 : until - 6e4;
    return token;
  }
  /** How one call goes out: the URL, the request options with the context's TLS and credentials. */
  async prepare(method, path, payload, o) {
    const token = await this.bearer();
    const url = new URL(this.ctx.server + path);
    const headers = { accept: o.accept ?? "application/json" };
    if (payload !== void 0) headers["content-type"] = o.contentType ?? "application/json";
    if (token) headers.authorization = `Bearer ${token}`;
    const options = {
      method,
      headers,
      timeout: o.timeoutMs,
      ...url.protocol === "https:" ? {
        rejectUnauthorized: !this.ctx.insecure,
        ...this.ctx.ca ? { ca: this.ctx.ca } : {},
        ...this.ctx.cert && this.ctx.key ? { cert: this.ctx.cert, key: this.ctx.key } : {}
      } : {}
    };
    return { url, options, send: url.protocol === "https:" ? httpsRequest : httpRequest };
  }
  failed(e) {
    return e instanceof RunError ? e : new RunError(`Kubernetes API ${this.ctx.server} (context ${this.ctx.context}): ${e.message}`);
  }
  /** One call; 2xx answers parsed as JSON, anything else a KubeError with the API's message. */
  async request(method, path, body, o = {}) {
    const payload = body === void 0 ? void 0 : typeof body === "string" ? body : JSON.stringify(body);
    const timeoutMs = o.timeoutMs ?? 3e4;
    const { url, options, send } = await this.prepare(method, path, payload, { ...o, timeoutMs });
    return new Promise((resolve4, reject) => {
      const req = send(url, options, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          let json;
          try {
            json = text ? JSON.parse(text) : {};
          } catch {
            json = void 0;
          }
          if (status >= 200 && status < 300) {
            if (json === void 0)
              reject(new KubeError(status, method, path, `not JSON: ${text.slice(0, 200)}`));
            else resolve4(json);
            return;
          }
          reject(new KubeError(status, method, path, statusMessage(text)));
        });
      });
      req.on(
        "timeout",
        () => req.destroy(new RunError(`Kubernetes API ${method} ${path}: no answer within ${timeoutMs / 1e3}s`))
      );
      req.on("error", (e) => reject(this.failed(e)));
      req.end(payload);
    });
  }
  /**
   * A GET whose answer is read as it arrives (a pod's log with follow=true): each chunk to
   * `onData` until the server ends it or `signal` stops it; a non-2xx answer is a KubeError.
   * `idleMs` bounds the wait for the answer to start, not its length.
   */
  async stream(path, onData, o = {}) {
    const idleMs = o.idleMs ?? 3e4;
    const { url, options, send } = await this.prepare("GET", path, void 0, {
      timeoutMs: idleMs,
      accept: "*/*"
    });
    return new Promise((resolve4, reject) => {
      const req = send(url, options, (res) => {
        const status = res.statusCode ?? 0;
        res.setEncoding("utf8");
        if (status < 200 || status >= 300) {
          let text = "";
          res.on("data", (d) => {
            text += d;
          });
          res.on("end", () => reject(new KubeError(status, "GET", path, statusMessage(text))));
          return;
        }
        req.setTimeout(0);
        res.on("data", (d) => onData(d));
        res.on("end", () => resolve4());
        res.on("error", (e) => reject(this.failed(e)));
      });
      const stop = () => req.destroy(new RunError(`Kubernetes API GET ${path}: stopped`));
      if (o.signal?.aborted) stop();
      o.signal?.addEventListener("abort", stop, { once: true });
      req.on("close", () => o.signal?.removeEventListener("abort", stop));
      req.on(
        "timeout",
        () => req.destroy(new RunError(`Kubernetes API GET ${path}: no answer within ${idleMs / 1e3}s`))
      );
      req.on("error", (e) => reject(this.failed(e)));
      req.end();
    });
  }
  get(path) {
    return this.request("GET", path);
  }
  /** The object, or undefined when the API says 404. */
  async find(path) {
    try {
      return await this.get(path);
    } catch (e) {
      if (e instanceof KubeError && e.status === 404) return void 0;
      throw e;
    }
  }
  create(collection, obj) {
    return this.request("POST", collection, obj);
  }
  /** Deletes an object (its dependents in the background); gone already is no error. */
  async remove(path) {
    try {
      await this.request("DELETE", `${path}${path.includes("?") ? "&" : "?"}propagationPolicy=Background`);
      return true;
    } catch (e) {
      if (e instanceof KubeError && e.status === 404) return false;
      throw e;
    }
  }
  /** Namespaces by label selector. */
  async namespaces(selector2) {
    const list2 = await this.get(
      `/api/v1/namespaces?labelSelector=${encodeURIComponent(selector2)}`
    );
    return list2.items ?? [];
  }
  /**
   * Polls `path` until `ready` says yes (returns the object) or `timeoutMs` passes (throws with
   * what `describe` says of the last answer). A 404 counts as not ready yet.
   */
  async waitFor(path, ready2, o) {
    const deadline = Date.now() + o.timeoutMs;
    let last;
    for (; ; ) {
      last = await this.find(path);
      if (ready2(last)) return last;
      if (o.signal?.aborted) throw new RunError(`${o.what}: stopped while waiting`);
      if (Date.now() >= deadline)
        throw new RunError(
          `${o.what}: not within ${Math.round(o.timeoutMs / 1e3)}s${o.describe ? ` (${o.describe(last)})` : ""}`
        );
      await new Promise((res) => setTimeout(res, o.everyMs ?? 2e3));
    }
  }
  /** Deletes a namespace and waits until it is gone (its objects with it); bounded. */
  async deleteNamespace(name, timeoutMs = 6e5) {
    await this.remove(`/api/v1/namespaces/${name}`);
    await this.waitFor(`/api/v1/namespaces/${name}`, (ns) => ns === void 0, {
      timeoutMs,
      what: `namespace ${name} deleted`,
      describe: (ns) => `still ${ns?.status?.phase ?? "there"}`
    });
  }
};

// action/src/targets/tidb/deployments/kubernetes/manifests.ts
var TIDB_CLUSTER_API = "pingcap.com/v1alpha1";
var KUBE_ROLES = ["pd", "tikv", "tidb", "tiflash"];
var componentsOf = (manifest) => KUBE_ROLES.filter((r) => r in manifest.spec);
var configField = (role, toml) => role === "tiflash" && toml !== null ? { config: toml } : toml;
function dnsLabel(text, max = 63) {
  const out = text.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/-+/g, "-").slice(0, max).replace(/^-+|-+$/g, "");
  return out || "x";
}
var labelValue = (text) => text.replace(/[^A-Za-z0-9_.-]+/g, "-").slice(0, 63).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "");
var namespaceOf = (prefix) => dnsLabel(prefix.startsWith("tiperf-") ? prefix : `tiperf-${prefix}`);
function namespaceManifest(o) {
  return {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: {
      name: o.name,
      labels: { [MANAGED_BY]: MANAGER, [RUN_LABEL]: labelValue(o.runId) },
      annotations: { [EXPIRES]: o.expiresAt, "tiperf.io/run": o.runId }
    }
  };
}
var IMAGES = {
  pd: "pingcap/pd",
  tikv: "pingcap/tikv",
  tidb: "pingcap/tidb",
  tiflash: "pingcap/tiflash"
};
function tidbClusterManifest(o) {
  const k = o.settings;
  const nodeSelector = (role) => {
    const sel = { ...k.node_selector?.[role] ?? {} };
    const type = o.machineTypes[role];
    if (type) sel["node.kubernetes.io/instance-type"] = type;
    return Object.keys(sel).length ? { nodeSelector: sel } : {};
  };
  const config = (role) => o.configs[role] ? { config: configField(role, o.configs[role]) } : {};
  const storage = (role) => ({
    requests: { storage: k.storage[role] },
    ...k.storage_class?.[role] ? { storageClassName: k.storage_class[role] } : {}
  });
  return {
    apiVersion: TIDB_CLUSTER_API,
    kind: "TidbCluster",
    metadata: {
      name: o.name,
      namespace: o.namespace,
      labels: {
        [MANAGED_BY]: MANAGER,
        [RUN_LABEL]: labelValue(o.runId),
        "tiperf.io/variants": labelValue(o.variants.join("."))
      }
    },
    spec: {
      version: o.version,
      timezone: "UTC",
      // the run's data goes with the run
      pvReclaimPolicy: "Delete",
      configUpdateStrategy: "RollingUpdate",
      enableDynamicConfiguration: true,
      hostNetwork: k.host_network,
      pd: {
        baseImage: k.images.pd ?? IMAGES.pd,
        replicas: o.counts.pd,
        ...storage("pd"),
        ...config("pd"),
        ...nodeSelector("pd")
      },
      tikv: {
        baseImage: k.images.tikv ?? IMAGES.tikv,
        replicas: o.counts.tikv,
        ...storage("tikv"),
        ...config("tikv"),
        ...nodeSelector("tikv")
      },
      tidb: {
        baseImage: k.images.tidb ?? IMAGES.tidb,
        replicas: o.counts.tidb,
        service: { type: k.service, exposeStatus: true },
        ...config("tidb"),
        ...nodeSelector("tidb")
      },
      // TiFlash (the columnar replicas) only when the profile has some: its volumes as storageClaims
      ...o.counts.tiflash > 0 ? {
        tiflash: {
          baseImage: k.images.tiflash ?? IMAGES.tiflash,
          replicas: o.counts.tiflash,
          storageClaims: [
            {
              resources: { requests: { storage: k.storage.tiflash } },
              ...k.storage_class?.tiflash ? { storageClassName: k.storage_class.tiflash } : {}
            }
          ],
          ...config("tiflash"),
          ...nodeSelector("tiflash")
        }
      } : {}
    }
  };
}
var RESTARTED_AT_ANNOTATION = "tidb.pingcap.com/restartedAt";
var restartPatch = (roles, at2) => ({
  spec: Object.fromEntries(roles.map((r) => [r, { annotations: { [RESTARTED_AT_ANNOTATION]: at2 } }]))
});
var switchPatch = (roles, configs, at2) => ({
  spec: Object.fromEntries(
    roles.map((r) => [
      r,
      { config: configField(r, configs[r] || null), annotations: { [RESTARTED_AT_ANNOTATION]: at2 } }
    ])
  )
});
var manifestsYaml = (objects) => objects.map((o) => (0, import_yaml3.stringify)(o)).join("---\n");
function rolesOf(p) {
  const counts = Object.fromEntries(KUBE_ROLES.map((r) => [r, p.roles[r].count ?? 0]));
  const machineTypes = {};
  for (const r of KUBE_ROLES)
    if (p.roles[r].instance_type) machineTypes[r] = p.roles[r].instance_type;
  return { counts, machineTypes };
}
var tidbServiceName = (cluster) => `${cluster}-tidb`;
var TIDB_SERVICE_PORT = 4e3;
var inClusterAddress = (d) => ({
  host: `${tidbServiceName(d.name)}.${d.namespace}.svc`,
  port: TIDB_SERVICE_PORT
});
var LOAD_POD_NAME = "tiperf-load-<n>";
var LOAD_COMMAND = "<the step's command>";
var LOAD_POD_FILE = "kubernetes-load.yaml";
function loadPodManifest(o) {
  const load = o.settings.load;
  if (!load) throw new Error("kubernetes.load is not set");
  const sel = { ...load.node_selector ?? {} };
  if (load.instance_type) sel["node.kubernetes.io/instance-type"] = load.instance_type;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: o.name,
      namespace: o.namespace,
      labels: { [MANAGED_BY]: MANAGER, [RUN_LABEL]: labelValue(o.runId), "tiperf.io/role": "load" }
    },
    spec: {
      restartPolicy: "Never",
      ...Object.keys(sel).length ? { nodeSelector: sel } : {},
      ...o.settings.host_network ? { hostNetwork: true, dnsPolicy: "ClusterFirstWithHostNet" } : {},
      terminationGracePeriodSeconds: 5,
      containers: [
        {
          name: "load",
          image: load.image,
          command: o.command,
          resources: {
            requests: { cpu: String(load.cpus), ...load.memory ? { memory: load.memory } : {} }
          }
        }
      ]
    }
  };
}

// action/src/kubernetes/kubeconfig.ts
var import_yaml4 = __toESM(require_dist(), 1);
import { readFileSync as readFileSync4 } from "node:fs";
import { homedir as homedir3 } from "node:os";
import { dirname as dirname4, isAbsolute, resolve as resolve2 } from "node:path";
function kubeconfigPath(given) {
  if (given) return given.startsWith("~/") ? resolve2(homedir3(), given.slice(2)) : resolve2(given);
  const env = setting("KUBECONFIG")?.split(":").find(Boolean);
  return env ? resolve2(env) : resolve2(homedir3(), ".kube", "config");
}
function loadKubeContext(o) {
  const file = kubeconfigPath(o.kubeconfig);
  let raw;
  try {
    raw = (0, import_yaml4.parse)(readFileSync4(file, "utf8")) ?? {};
  } catch (e) {
    throw new InputError(`${o.where}: kubeconfig ${file} cannot be read: ${e.message}`);
  }
  const name = o.context ?? raw["current-context"];
  if (!name)
    throw new InputError(
      `${o.where}: kubeconfig ${file} has no current-context: name one (kubernetes.context)`
    );
  const ctx = raw.contexts?.find((c) => c.name === name)?.context;
  if (!ctx)
    throw new InputError(
      `${o.where}: kubeconfig ${file} has no context ${name} (contexts: ${(raw.contexts ?? []).map((c) => c.name).join(", ") || "none"})`
    );
  const cluster = raw.clusters?.find((c) => c.name === ctx.cluster)?.cluster;
  if (!cluster || typeof cluster.server !== "string")
    throw new InputError(
      `${o.where}: kubeconfig ${file}: context ${name} names cluster ${ctx.cluster}, which has no server`
    );
  const user = raw.users?.find((u) => u.name === ctx.user)?.user ?? {};
  const base = dirname4(file);
  const bytes = (data, path) => {
    if (typeof data === "string") return Buffer.from(data, "base64");
    if (typeof path === "string") return readFileSync4(isAbsolute(path) ? path : resolve2(base, path));
    return void 0;
  };
  const tokenFile = typeof user.tokenFile === "string" ? user.tokenFile : void 0;
  const token = typeof user.token === "string" ? user.token : tokenFile ? readFileSync4(isAbsolute(tokenFile) ? tokenFile : resolve2(base, tokenFile), "utf8").trim() : void 0;
  const exec = user.exec;
  const out = {
    file,
    context: name,
    server: cluster.server.replace(/\/+$/, ""),
    insecure: cluster["insecure-skip-tls-verify"] === true
  };
  const ca = bytes(cluster["certificate-authority-data"], cluster["certificate-authority"]);
  if (ca) out.ca = ca;
  if (token) out.token = token;
  const cert = bytes(user["client-certificate-data"], user["client-certificate"]);
  const key = bytes(user["client-key-data"], user["client-key"]);
  if (cert && key) {
    out.cert = cert;
    out.key = key;
  }
  if (exec?.command)
    out.exec = {
      command: exec.command,
      args: exec.args ?? [],
      env: Object.fromEntries((exec.env ?? []).map((e) => [e.name, e.value]))
    };
  if (ctx.namespace) out.namespace = ctx.namespace;
  return out;
}

// action/src/targets/tidb/deployments/kubernetes/steps.ts
var API = "<api>";
var EXPIRES_AT = "<expires at>";
var RESTARTED_AT = "<restart time>";
var sqlAddress = (d) => `<${d.name} sql address>`;
var statusAddress = (d) => `<${d.name} status address>`;
var tidbClusters = (d) => `${API}/apis/${TIDB_CLUSTER_API}/namespaces/${d.namespace}/tidbclusters`;
var paths = {
  namespaces: `${API}/api/v1/namespaces`,
  namespace: (ns) => `${API}/api/v1/namespaces/${ns}`,
  tidbClusters,
  tidbCluster: (d) => `${tidbClusters(d)}/${d.name}`,
  service: (d) => `${API}/api/v1/namespaces/${d.namespace}/services/${tidbServiceName(d.name)}`
};
var kubeStep = {
  namespace: (ns) => `namespace:${ns}`,
  deleteNamespace: (ns) => `delete-namespace:${ns}`,
  ready: (d) => `ready:${d.name}`,
  service: (d) => `service:${d.name}`,
  /** A shared TidbCluster switched to a variant by the operator's rolling update. */
  switch: (d, v) => `switch:${d.name}:${v.name}`
};

// action/src/targets/tidb/deployments/kubernetes/run.ts
var clients = /* @__PURE__ */ new WeakMap();
var ready = /* @__PURE__ */ new WeakMap();
var alive3 = /* @__PURE__ */ new Map();
var restartAt = /* @__PURE__ */ new WeakMap();
function clientOf(ctx) {
  let c = clients.get(ctx);
  if (!c) {
    c = (async () => {
      const k = ctx.plan.profile.kubernetes;
      const where = {
        ...k?.kubeconfig ? { kubeconfig: k.kubeconfig } : {},
        ...k?.context ? { context: k.context } : {}
      };
      const client = new KubeClient(loadKubeContext({ ...where, where: ctx.plan.profileFile }));
      const server = client.ctx.server;
      const ttl = parseAge(k?.ttl ?? "6h") ?? 6 * 36e5;
      const expires = new Date(Date.now() + ttl).toISOString();
      ctx.addFill(
        (t) => t.replaceAll(API, server).replaceAll(EXPIRES_AT, expires).replaceAll(RESTARTED_AT, restartAt.get(ctx) ?? RESTARTED_AT)
      );
      ready.set(ctx, client);
      return client;
    })();
    clients.set(ctx, c);
  }
  return c;
}
function readyClient(ctx) {
  const c = ready.get(ctx);
  if (!c) throw new RunError("kubernetes: the cluster's client is asked for before any TidbCluster started");
  return c;
}
var pathOf = (c, url) => url.startsWith(c.ctx.server) ? url.slice(c.ctx.server.length) : url;
var conditions = (tc) => tc?.status?.conditions ?? [];
var isReady = (tc) => conditions(tc).some((c) => c.type === "Ready" && c.status === "True");
function readiness(tc) {
  if (!tc) return "no such TidbCluster";
  const st = tc.status ?? {};
  const phases = KUBE_ROLES.filter((r) => r !== "tiflash" || st[r]).map((r) => `${r} ${st[r]?.phase ?? "no status"}`).join(", ");
  const ready2 = conditions(tc).find((c) => c.type === "Ready");
  return `${phases}; Ready ${ready2?.status ?? "not reported"}${ready2?.message ? `: ${ready2.message}` : ready2?.reason ? ` (${ready2.reason})` : ""}`;
}
var readyTimeoutMs = (ctx) => (ctx.plan.profile.kubernetes?.ready_timeout ?? 1800) * 1e3;
function revisions(tc) {
  const st = tc?.status ?? {};
  return Object.fromEntries(
    KUBE_ROLES.map((r) => {
      const set = st[r]?.statefulSet;
      return [r, { current: set?.currentRevision, update: set?.updateRevision }];
    })
  );
}
function rolling2(before, now, roles = KUBE_ROLES) {
  const after = revisions(now);
  return roles.filter((r) => {
    const b = before[r];
    const a = after[r];
    if (!b?.update && !a?.update) return false;
    return !a?.update || a.update === b?.update || a.current !== a.update;
  }).map((r) => {
    const a = after[r];
    return `${r} ${a?.update === before[r]?.update ? "not yet on a new revision" : `${a?.current ?? "?"} \u2192 ${a?.update ?? "?"}`}`;
  });
}
async function serviceEndpoints(c, svc) {
  const spec = svc.spec ?? {};
  const ports = spec.ports ?? [];
  const sqlPort = ports.find((p) => p.name === "mysql-client") ?? ports[0];
  const statusPort = ports.find((p) => p.name === "status");
  if (!sqlPort) return { waiting: `Service ${svc.metadata.name} has no ports` };
  if (spec.type === "NodePort") {
    if (!sqlPort.nodePort) return { waiting: `Service ${svc.metadata.name} has no nodePort yet` };
    const nodes = await c.get(
      "/api/v1/nodes"
    );
    const addrs = (nodes.items ?? []).flatMap((n) => n.status?.addresses ?? []);
    const host3 = (addrs.find((a) => a.type === "ExternalIP") ?? addrs.find((a) => a.type === "InternalIP"))?.address;
    if (!host3) return { waiting: "no node reports an address" };
    return {
      sql: { host: host3, port: sqlPort.nodePort },
      status: { host: host3, port: statusPort?.nodePort ?? 10080 }
    };
  }
  const ingress = svc.status?.loadBalancer?.ingress?.[0];
  const host2 = ingress?.ip ?? ingress?.hostname;
  if (!host2)
    return {
      waiting: `Service ${svc.metadata.name} (${spec.type ?? "ClusterIP"}) has no load balancer address yet`
    };
  return { sql: { host: host2, port: sqlPort.port }, status: { host: host2, port: statusPort?.port ?? 10080 } };
}
async function createNamespace(ctx, c, d) {
  if (await c.find(`/api/v1/namespaces/${d.namespace}`))
    throw new RunError(
      `namespace ${d.namespace} already exists on ${c.ctx.server} (context ${c.ctx.context}): tiperf creates its own and never touches one it did not create`
    );
  const step = ctx.planned(kubeStep.namespace(d.namespace));
  if (!("post" in step.run)) throw new RunError(`step ${step.key} is not a POST`);
  await c.create(pathOf(c, step.run.post), JSON.parse(step.run.body));
  ctx.log(`kubernetes: namespace ${d.namespace} created on ${c.ctx.server} (context ${c.ctx.context})`);
}
function stopper(ctx, c, d) {
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    const del = ctx.planned(stepKey.stop(d));
    let failed;
    if ("delete" in del.run) await c.remove(pathOf(c, del.run.delete)).catch((e) => failed = e);
    const left = (alive3.get(d.namespace) ?? 1) - 1;
    alive3.set(d.namespace, left);
    if (left > 0) {
      if (failed) throw failed;
      return;
    }
    alive3.delete(d.namespace);
    if (!ctx.plan.steps.some((s) => s.key === kubeStep.deleteNamespace(d.namespace))) {
      if (failed) throw failed;
      return;
    }
    const ns = ctx.planned(kubeStep.deleteNamespace(d.namespace));
    if ("delete" in ns.run) {
      await c.deleteNamespace(pathOf(c, ns.run.delete).split("/").pop());
      ctx.log(`kubernetes: namespace ${d.namespace} deleted`);
    }
  };
}
async function createCluster(ctx, c, d, signal) {
  const create = ctx.planned(stepKey.start(d));
  if (!("post" in create.run)) throw new RunError(`step ${create.key} is not a POST`);
  const deadline = Date.now() + readyTimeoutMs(ctx);
  await c.create(pathOf(c, create.run.post), JSON.parse(create.run.body));
  const ready2 = ctx.planned(kubeStep.ready(d));
  if (!("get" in ready2.run)) throw new RunError(`step ${ready2.key} is not a GET`);
  ctx.log(
    `kubernetes: TidbCluster ${d.name} created in ${d.namespace}; waiting for the operator to report it Ready`
  );
  await c.waitFor(pathOf(c, ready2.run.get), isReady, {
    timeoutMs: deadline - Date.now(),
    everyMs: 2e3,
    signal,
    what: `TidbCluster ${d.name} in ${d.namespace} Ready`,
    describe: readiness
  });
  const { sql, status } = await serviceAddress(ctx, c, d, signal, deadline);
  ctx.addFill(
    (t) => t.replaceAll(sqlAddress(d), sql.host).replaceAll(statusAddress(d), `${status.host}:${status.port}`)
  );
  ctx.log(
    `kubernetes: TidbCluster ${d.name} Ready; TiDB at ${sql.host}:${sql.port}, status ${status.host}:${status.port}`
  );
  return { sql, status };
}
async function serviceAddress(ctx, c, d, signal, deadline) {
  const svcStep = ctx.planned(kubeStep.service(d));
  if (!("get" in svcStep.run)) throw new RunError(`step ${svcStep.key} is not a GET`);
  for (; ; ) {
    const svc = await c.find(pathOf(c, svcStep.run.get));
    const where = svc ? await serviceEndpoints(c, svc) : { waiting: "no TiDB Service yet" };
    if (!("waiting" in where)) return where;
    if (signal.aborted || Date.now() > deadline)
      throw new RunError(
        `TidbCluster ${d.name}: no address for this machine to reach TiDB: ${where.waiting}`
      );
    await new Promise((res) => setTimeout(res, 2e3));
  }
}
var kubernetesRuntime = {
  targetKind: "tidb-operator",
  build: () => void 0,
  async start(ctx, d, _setup, signal) {
    const c = await clientOf(ctx);
    if (d.namespaceManifest) await createNamespace(ctx, c, d);
    alive3.set(d.namespace, (alive3.get(d.namespace) ?? 0) + 1);
    const stop = stopper(ctx, c, d);
    try {
      const { sql } = await createCluster(ctx, c, d, signal);
      return {
        deployment: d,
        // the load tools connect as planned: from a pod by the Service's name, or from here
        endpoints: ctx.plan.profile.kubernetes?.load ? [inClusterAddress(d)] : [sql],
        sql,
        // as planned: the plan's steps are keyed by these, filled in with the Service's address
        status: { pd: [], tikv: [], tidb: [statusAddress(d)], tiflash: [] },
        died: new Promise(() => {
        }),
        // a shared TidbCluster is created with its first variant's config
        ...d.online ? { applied: d.variants[0] } : {},
        stop,
        up: true,
        loaded: /* @__PURE__ */ new Set(),
        users: 0,
        restarts: 0,
        counting: []
      };
    } catch (e) {
      await stop().catch((err) => ctx.log(`teardown: ${err.message}`));
      throw e;
    }
  },
  state: (d) => `TidbCluster ${d.name} in namespace ${d.namespace}`,
  async watch(ctx, _setup, d) {
    const c = readyClient(ctx);
    const path = paths.tidbCluster(d).slice(API.length);
    return async () => {
      const tc = await c.find(path).catch(() => void 0);
      return isReady(tc) ? void 0 : `TidbCluster ${d.name} is not Ready after the cell: ${readiness(tc)}`;
    };
  }
};

// action/src/targets/tidb/deployments/kubernetes/load.ts
var launchers = /* @__PURE__ */ new WeakMap();
var kubernetesLoadLauncher = (ctx, d) => {
  if (!ctx.plan.profile.kubernetes) return void 0;
  const k = kubeSettingsOf(ctx.plan.profile);
  if (!k.load) return void 0;
  let l = launchers.get(ctx);
  if (!l) {
    const runId = d.runId;
    l = new PodLauncher({
      client: () => readyClient(ctx),
      namespace: d.namespace,
      manifest: (name, command) => loadPodManifest({ name, namespace: d.namespace, runId, settings: k, command }),
      cores: k.load.cpus,
      startTimeoutMs: k.load.start_timeout * 1e3,
      prefix: "tiperf-load"
    });
    launchers.set(ctx, l);
  }
  return l;
};
var kubernetesLoad = {
  place(p) {
    const load = p.kubernetes ? kubeSettingsOf(p).load : void 0;
    if (!load) return void 0;
    const node = [
      ...Object.entries(load.node_selector ?? {}).map(([k, v]) => `${k}=${v}`),
      ...load.instance_type ? [`node.kubernetes.io/instance-type=${load.instance_type}`] : []
    ];
    return {
      where: "pod",
      cores: load.cpus,
      about: `a pod per step in the run's namespace (image ${load.image}, ${load.cpus} CPUs requested${node.length ? `, on nodes ${node.join(", ")}` : ""}; tidb/${LOAD_POD_FILE}), reaching TiDB through its Service inside the cluster`
    };
  },
  launcher: kubernetesLoadLauncher
};

// action/src/targets/tidb/deployments/kubernetes/plan.ts
function switchStep(d, v, own, add) {
  const rolling3 = d.rolling;
  add(
    kubeStep.switch(d, { name: v }),
    "switch",
    {
      patch: paths.tidbCluster(d),
      body: JSON.stringify(switchPatch(rolling3.roles, rolling3.configs[v] ?? {}, RESTARTED_AT))
    },
    `variant ${v}, before each group of its cells: ${rolling3.roles.join(", ")} config set to ${v}'s and a new ${RESTARTED_AT_ANNOTATION}; waited for until those roles' StatefulSets are on a new revision and Ready is True, then its config read back`,
    own ? { variant: v } : {}
  );
}
function onlineSteps(d, v, own, add) {
  for (const k of d.online?.keys ?? []) {
    const value = v.configKeys.find((c) => c.role === k.role && c.key === k.key)?.value;
    add(
      stepKey.setConfigSql(v, k.role, k.key),
      "switch",
      { sql: setConfigSql(k.role, k.key, value) },
      `variant ${v.name}, whenever another variant of TidbCluster ${d.name} was applied (or its pods restarted): TiDB sends the item to every ${k.role} instance, no restart; a warning fails the run, and SHOW CONFIG reads every instance back`,
      { ...own ? { variant: v.name } : {}, where: "runner" }
    );
  }
}
var ONLINE_SWITCH_S2 = 2;
function variantGroups(variants, k) {
  const groups = [];
  const key = (x) => `${x.target.version}
${JSON.stringify(x.target.split ?? null)}`;
  for (const v of variants) {
    const g = k.config_switch !== "side-by-side" ? groups.find((m) => key(m[0]) === key(v)) : void 0;
    if (g) g.push(v);
    else groups.push([v]);
  }
  return groups;
}
function clusterName(all, groups, members, index, used) {
  const label = all === 1 || members.length > 1 && groups === 1 ? "tidb" : members.length > 1 ? `tidb-${index + 1}` : `tidb-${members[0].name}`;
  let name = dnsLabel(label, 40);
  if (used.has(name)) name = dnsLabel(`${name}-${index}`, 40);
  used.add(name);
  return name;
}
function turnsOf(o, k, members, setups, configs, roles) {
  if (members.length < 2) return {};
  if (k.config_switch === "online") {
    const cs = configSwitchOf(setups);
    if (cs.by !== "online")
      throw new InputError(
        `${o.profileFile}: kubernetes.config_switch is online, but variants ${members.map((v) => v.name).join(", ")} cannot switch online: ${cs.why.join("; ")}. Use config_switch: rolling-update (the operator's rolling update) or side-by-side (a TidbCluster each)`
      );
    return { online: { keys: cs.keys } };
  }
  const perVariant = (v) => Object.fromEntries(roles.map((r) => [r, configs.get(v.name)?.[r] ?? ""]));
  return { rolling: { roles, configs: Object.fromEntries(members.map((v) => [v.name, perVariant(v)])) } };
}
function planCluster(o, k, members, index, name) {
  const namespace = namespaceOf(o.prefix);
  const { counts, machineTypes } = rolesOf(o.profile);
  const first = members[0];
  const configsOf = (v) => Object.fromEntries(
    KUBE_ROLES.map((role) => {
      const c = o.roleConfig(v.target, role);
      return [role, Object.keys(c).length ? toToml(c) : ""];
    })
  );
  const configs = new Map(members.map((v) => [v.name, configsOf(v)]));
  const manifest = tidbClusterManifest({
    name,
    namespace,
    runId: o.prefix,
    variants: members.map((v) => v.name),
    version: first.target.version ?? "",
    counts,
    configs: configs.get(first.name),
    settings: k,
    machineTypes
  });
  const ns = index === 0 ? namespaceManifest({ name: namespace, runId: o.prefix, expiresAt: EXPIRES_AT }) : void 0;
  if (index === 0 && k.load)
    o.files[LOAD_POD_FILE] = manifestsYaml([
      loadPodManifest({
        name: LOAD_POD_NAME,
        namespace,
        runId: o.prefix,
        settings: k,
        command: [LOAD_COMMAND]
      })
    ]);
  const file = `kubernetes-${members.length > 1 ? name : first.name}.yaml`;
  o.files[file] = manifestsYaml(ns ? [ns, manifest] : [manifest]);
  const differ = componentsOf(manifest).filter(
    (r) => new Set(members.map((v) => configs.get(v.name)?.[r])).size > 1
  );
  const setups = members.map((v) => o.setupOf(v, index));
  const turns = turnsOf(o, k, members, setups, configs, differ.length ? differ : ["tidb"]);
  const deployment = {
    form: "kubernetes",
    name,
    index,
    version: first.target.version ?? "",
    variants: members.map((v) => v.name),
    namespace,
    runId: o.prefix,
    file,
    manifest,
    ...ns ? { namespaceManifest: ns } : {},
    ...turns
  };
  return { deployment, setups };
}
var statusAddressesOf = (d) => Object.fromEntries(ROLES.map((r) => [r, r === "tidb" ? [statusAddress(d)] : []]));

// action/src/targets/tidb/deployments/kubernetes/rolls.ts
async function roll(ctx, d, key, roles, instead, signal) {
  const c = readyClient(ctx);
  const path = paths.tidbCluster(d).slice(API.length);
  const before = revisions(await c.get(path));
  if (roles.every((role) => !before[role]?.update))
    throw new RunError(
      `TidbCluster ${d.name}: the operator reports no StatefulSet revisions (status.<role>.statefulSet), so a rolling update could not be seen to finish: use ${instead}`
    );
  restartAt.set(ctx, (/* @__PURE__ */ new Date()).toISOString());
  const step = ctx.planned(key);
  restartAt.delete(ctx);
  if (!("patch" in step.run)) throw new RunError(`step ${step.key} is not a PATCH`);
  const started2 = Date.now();
  const body = JSON.parse(step.run.body);
  const patched = await c.request("PATCH", pathOf(c, step.run.patch), step.run.body, {
    contentType: "application/merge-patch+json"
  });
  const spec = patched.spec ?? {};
  for (const [role, asked] of Object.entries(body.spec))
    if (spec[role]?.annotations?.[RESTARTED_AT_ANNOTATION] !== asked.annotations[RESTARTED_AT_ANNOTATION])
      throw new RunError(
        `TidbCluster ${d.name}: the API server did not keep spec.${role}.annotations.${RESTARTED_AT_ANNOTATION} (the TidbCluster CRD here has no such field), so TiDB Operator would not roll it: use ${instead}`
      );
  await c.waitFor(path, (tc) => isReady(tc) && rolling2(before, tc, roles).length === 0, {
    timeoutMs: readyTimeoutMs(ctx),
    everyMs: 2e3,
    signal,
    what: `TidbCluster ${d.name} in ${d.namespace} rolled by TiDB Operator (${roles.join(", ")})`,
    describe: (tc) => `${readiness(tc)}; rolling: ${rolling2(before, tc, roles).join(", ") || "done"}`
  });
  return Math.round((Date.now() - started2) / 1e3);
}
async function switchOnline(ctx, d, setup, r) {
  if (r.applied === setup.name) return void 0;
  const keys = d.online?.keys ?? [];
  for (const k of keys) {
    const step = ctx.planned(stepKey.setConfigSql(setup, k.role, k.key));
    if (!("sql" in step.run)) throw new RunError(`step ${step.key} is not SQL`);
    const warnings = (await ctx.checks.sql(r.sql, step.run.sql, `variant ${setup.name}: SET CONFIG`)).trim();
    if (warnings)
      throw new RunError(
        `variant ${setup.name}: TiDB did not set ${k.role} ${k.key} online on TidbCluster ${d.name} (\`${step.run.sql}\`): ${warnings.replaceAll("	", " ")}`
      );
  }
  r.applied = setup.name;
  await ctx.checkConfig(setup, r);
  return `TidbCluster ${d.name}: variant ${setup.name} applied online (${keys.map((k) => `${k.role} ${k.key}`).join(", ") || "target.sql only"}), read back by SHOW CONFIG`;
}
var kubernetesRestarts = {
  seconds: 300,
  // a fresh instance of every component on the same volumes (compare.blocks): the operator's
  // graceful rolling restart, asked for by the planned PATCH and waited for until done
  async restart(ctx, d, _setup, r, state, signal) {
    const seconds = await roll(
      ctx,
      d,
      stepKey.restart(d),
      componentsOf(d.manifest),
      "compare.blocks: 1",
      signal
    );
    state.seen = ++r.restarts;
    if (d.online) r.applied = void 0;
    return `TidbCluster ${d.name}: rolling restart by TiDB Operator done in ${seconds}s`;
  }
};
var switchTidbCluster = async (ctx, d, setup, r, signal, fresh) => {
  if (d.online) return switchOnline(ctx, d, setup, r);
  if (!d.rolling) return void 0;
  r.applied ??= d.variants[0];
  if (r.applied === setup.name && !fresh) return void 0;
  const roles = d.rolling.roles;
  const seconds = await roll(
    ctx,
    d,
    kubeStep.switch(d, setup),
    roles,
    "kubernetes.config_switch: side-by-side",
    signal
  );
  const was = r.applied;
  r.applied = setup.name;
  await ctx.checkConfig(setup, r);
  return `TidbCluster ${d.name}: variant ${setup.name} ${was === setup.name ? "again, on fresh pods" : "switched in"} by TiDB Operator's rolling update of ${roles.join(", ")} in ${seconds}s`;
};

// action/src/targets/tidb/deployments/kubernetes/index.ts
var kubernetesForm = {
  name: "kubernetes",
  // the operator's rolling start of PD, TiKV and TiDB pods (images pulled once per node)
  deploySeconds: 600,
  restarts: kubernetesRestarts,
  plan(o) {
    if (!o.profile.kubernetes) throw new Error("provider kubernetes without its section (checked on load)");
    const k = kubeSettingsOf(o.profile);
    const groups = variantGroups(o.variants, k);
    const used = /* @__PURE__ */ new Set();
    const deployments = [];
    const variants = groups.flatMap((members, index) => {
      const name = clusterName(o.variants.length, groups.length, members, index, used);
      const { deployment, setups } = planCluster(o, k, members, index, name);
      deployments.push(deployment);
      return setups;
    });
    return { deployments, variants };
  },
  switching: (variants, deployments) => deployments.some((d) => d.rolling) ? "rolling-update" : deployments.some((d) => d.online) ? "online" : variants > 1 ? "separate-clusters" : "none",
  turns: {
    switchTo: switchTidbCluster,
    grouped: (_switching, deployments) => deployments.some((d) => d.rolling),
    switchSeconds: (plan) => plan.switching === "rolling-update" ? kubernetesRestarts.seconds : plan.switching === "online" ? ONLINE_SWITCH_S2 : 0,
    switchingText(plan) {
      const shared = plan.deployments.filter((x) => x.form === "kubernetes");
      const on = shared.find((x) => x.online);
      if (on?.online)
        return `SET CONFIG through TiDB's SQL on TidbCluster ${on.name} (kubernetes.config_switch: online): before a cell of another variant its ${on.online.keys.map((k) => `${k.role} ${k.key}`).join(", ") || "target.sql only"} set to the variant's on every instance, then read back by SHOW CONFIG; no restart, so the variants interleave cell by cell`;
      const d = shared.find((x) => x.rolling);
      if (!d?.rolling) return void 0;
      return `TiDB Operator's rolling update of TidbCluster ${d.name} (kubernetes.config_switch: rolling-update): before each group of cells its spec's ${d.rolling.roles.join(", ")} config is set to the variant's, with a new ${RESTARTED_AT_ANNOTATION}, and the run waits until those roles' pods are replaced and Ready \u2014 so each variant runs a block's cells as a group on fresh pods of the same nodes and volumes`;
    },
    switchIn(_plan, d, v, add) {
      if (d.variants[0] === v.name) return false;
      if (d.online) onlineSteps(d, v, true, add);
      else if (d.rolling) switchStep(d, v.name, true, add);
      else return false;
      return true;
    }
  },
  configBySql: ["pd", "tikv", "tiflash"],
  // load pods: the Service's name in the cluster; this machine: its outside address (<port> till start)
  loadEndpoints: (plan, d) => plan.profile.kubernetes?.load ? [inClusterAddress(d)] : [{ host: sqlAddress(d), port: PORT_AT_START }],
  statusAddresses: (d) => statusAddressesOf(d),
  startSteps(_plan, d, v, add, about) {
    if (d.namespaceManifest)
      add(
        kubeStep.namespace(d.namespace),
        "start",
        { post: paths.namespaces, body: JSON.stringify(d.namespaceManifest) },
        `the run's own namespace, labelled with the run id, annotated with its expiry (kubernetes.ttl; \`tiperf reap --kubernetes\` deletes it after that); refused if it exists`,
        { variant: v.name }
      );
    add(
      stepKey.start(d),
      "start",
      { post: paths.tidbClusters(d), body: JSON.stringify(d.manifest) },
      `${about}: TidbCluster ${d.name} (tidb/${d.file})`,
      { variant: v.name }
    );
    add(
      kubeStep.ready(d),
      "start",
      { get: paths.tidbCluster(d) },
      `${about}: until TiDB Operator's status.conditions Ready is True (kubernetes.ready_timeout)`,
      { variant: v.name }
    );
    add(
      kubeStep.service(d),
      "start",
      { get: paths.service(d) },
      `${about}: where this machine reaches TiDB (the Service's load balancer address, or a node's address and the NodePort) and its status port`,
      { variant: v.name }
    );
  },
  blockSteps(plan, d, add) {
    if (d.online)
      onlineSteps(d, plan.variants.find((v) => v.name === d.variants[0]), false, add);
    if (d.rolling) {
      switchStep(d, d.variants[0], false, add);
      return;
    }
    add(
      stepKey.restart(d),
      "restart",
      {
        patch: paths.tidbCluster(d),
        body: JSON.stringify(restartPatch(componentsOf(d.manifest), RESTARTED_AT))
      },
      `before each block after the first (compare.blocks): TiDB Operator's graceful rolling restart of every component (${RESTARTED_AT_ANNOTATION}), waited for until each role's StatefulSet is on a new revision and Ready is True: fresh pods on the same volumes`
    );
  },
  teardownSteps(_plan, d, add) {
    add(
      stepKey.stop(d),
      "teardown",
      { delete: paths.tidbCluster(d) },
      "always: success, failure, cancel, SIGTERM (pvReclaimPolicy Delete: its volumes go with it)"
    );
    if (d.namespaceManifest)
      add(
        kubeStep.deleteNamespace(d.namespace),
        "teardown",
        { delete: paths.namespace(d.namespace) },
        "the run's namespace and everything in it, waited for until gone; `tiperf reap --kubernetes` if tiperf was killed"
      );
  },
  loadInPlace: kubernetesLoad,
  run: kubernetesRuntime
};
var KUBERNETES = {
  provider: "kubernetes",
  about: `TiDB Operator's TidbCluster per variant on a Kubernetes cluster (a kubeconfig context, or one tiperf creates with a ${Object.keys(KUBERNETES_CLOUDS).join(" or ")} section)`,
  sections: ["kubernetes", ...Object.keys(KUBERNETES_CLOUDS)],
  servers: "operator",
  form: kubernetesForm,
  checkProfile(p, issue) {
    if (!p.kubernetes)
      issue(
        ["kubernetes"],
        "provider kubernetes needs a kubernetes section (at least {} for the current context)"
      );
    for (const key of ["hosts", "ssh"])
      if (p[key]) issue([key], `a Kubernetes cluster's nodes are the operator's: remove ${key}`);
    const clouds = Object.keys(KUBERNETES_CLOUDS).filter((c) => p[c]);
    if (clouds.length > 1)
      issue([clouds[1]], `one cloud creates the cluster: keep one of ${clouds.join(", ")}`);
    const created = createdBy(p);
    if (created && p.kubernetes) {
      const cloud = created.cloud.name;
      for (const key of ["kubeconfig", "context"])
        if (p.kubernetes[key])
          issue(
            ["kubernetes", key],
            `names a cluster of yours, but the ${cloud} section makes tiperf create one for the run: remove one of them`
          );
      if (p.kubernetes.node_selector)
        issue(
          ["kubernetes", "node_selector"],
          `on the cluster tiperf creates (${cloud}) each role has a node pool of its own, selected by ${Object.keys(created.cloud.poolSelector("pd")).join(", ")}: remove node_selector`
        );
      if (p.kubernetes.load?.node_selector)
        issue(
          ["kubernetes", "load", "node_selector"],
          `on the cluster tiperf creates (${cloud}) the load tools have a node pool of their own: remove node_selector`
        );
      if (p.kubernetes.load && !p.kubernetes.load.instance_type)
        issue(
          ["kubernetes", "load", "instance_type"],
          `the ${cloud} section creates a node for the load tools: name its machine type (like c2-standard-30)`
        );
      for (const role of ["pd", "tikv", "tidb"])
        if ((p.roles[role].count ?? 0) > 0 && !p.roles[role].instance_type)
          issue(
            ["roles", role, "instance_type"],
            `the ${cloud} section creates a node pool of ${role}: name its machine type (like c2-standard-16)`
          );
    }
    if (p.haproxy) issue(["haproxy"], "TiDB's Service balances the load on Kubernetes: remove haproxy");
    if (p.monitoring)
      issue(
        ["monitoring"],
        "tiperf deploys no monitoring on Kubernetes (TidbMonitor is the operator's): remove monitoring"
      );
    for (const role of ROLES) {
      const r = p.roles[role];
      if (role === "tiflash") {
        if ((r.count ?? 0) > 0 && created)
          issue(
            ["roles", role, "count"],
            `the cluster the ${created.cloud.name} section creates has node pools for PD, TiKV and TiDB only: run TiFlash on a cluster you name (kubernetes.context), or leave it out`
          );
        if ((r.count ?? 0) === 0) continue;
      }
      if ((r.count ?? 0) < 1)
        issue(["roles", role, "count"], `a TidbCluster needs at least one ${role} replica`);
      for (const key of ["numa_node", "resource_control", "instances", "arch", "os"])
        if (r[key] !== void 0)
          issue(
            ["roles", role, key],
            `has no meaning for TiDB Operator's pods here: use kubernetes.node_selector (and roles.${role}.instance_type for the machine type)`
          );
    }
  },
  machines: {
    cloudOf: (p) => createdBy(p)?.cloud.name,
    plan(p, o) {
      const created = createdBy(p);
      const ask = kubernetesAsk(p);
      const estimate = estimateCost(created.cloud, ask, {
        // billed beside the matrix: creating the cluster, the TidbClusters' start, deleting it (about
        // half its creation)
        setup: (created.cloud.createSeconds * 1.5 + kubernetesForm.deploySeconds) / 3600,
        matrix: o.matrixSeconds / 3600
      });
      const refusals = budgetRefusals(ask, estimate, o.profileFile, created.cloud.name);
      return {
        about: kubernetesCloudPlanText(
          created.cloud,
          ask,
          estimate,
          plannedTags(ask.settings.ttl, o.runId)
        ).trimEnd(),
        refusals,
        seconds: created.cloud.createSeconds
      };
    },
    // the cluster first (its stack up, its kubeconfig written); the run then goes to it as to a
    // cluster the profile names, and destroys it after the namespace is gone
    async create(p, o) {
      const by = createdBy(p);
      const ask = kubernetesAsk(p);
      const cluster = await provisionKubernetes({
        cloud: by.cloud.name,
        ask,
        runId: o.prefix,
        runDir: o.runDir,
        ...o.shard ? { shard: o.shard } : {},
        log: o.log,
        signal: o.signal
      });
      const priced = estimateCost(by.cloud, ask, { setup: 0, matrix: 0 });
      return createdMachines(cluster, {
        profile: p.name,
        perHour: priced.perHour,
        asOf: priced.priceTable.as_of,
        onto: (q) => ({
          ...q,
          kubernetes: {
            ...q.kubernetes,
            kubeconfig: cluster.kubeconfig,
            context: cluster.context
          }
        })
      });
    }
  },
  checkTarget(t, profileFile) {
    if (!t.version)
      return `target.version: ${profileFile} (provider kubernetes) runs TiDB Operator's images of a release: name it (like v8.5.0)`;
    if (t.binpath || t.source)
      return `target.${t.binpath ? "binpath" : "source"}: ${profileFile} (provider kubernetes) runs images, not a build of this machine: push an image and set kubernetes.images`;
    if (t.resources)
      return `target.resources limits a private tidb-server (provider local); on Kubernetes set the pods' requests in the cluster`;
    return void 0;
  }
};

// action/src/targets/tidb/counting.ts
import { existsSync as existsSync6, readFileSync as readFileSync5 } from "node:fs";
import { link, mkdir as mkdir8, mkdtemp as mkdtemp2, readFile as readFile5, rm as rm7, writeFile as writeFile5 } from "node:fs/promises";
import { join as join15 } from "node:path";

// action/src/targets/tidb/status-api.ts
import { get as httpGet, request as httpRequest2 } from "node:http";
function getBytes(url, timeoutMs = 1e4) {
  return new Promise((resolve4, reject) => {
    const answer = (res) => {
      const chunks = [];
      res.on("data", (d) => chunks.push(d));
      res.on(
        "end",
        () => (res.statusCode ?? 0) >= 400 ? reject(new Error(`HTTP ${res.statusCode}`)) : resolve4(Buffer.concat(chunks))
      );
    };
    const req = typeof url === "string" ? httpGet(url, { timeout: timeoutMs }, answer) : httpGet({ ...url, timeout: timeoutMs }, answer);
    req.on("timeout", () => req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1e3)}s`)));
    req.on("error", reject);
  });
}
async function getJson(url) {
  const body = (await getBytes(url)).toString("utf8");
  try {
    return JSON.parse(body);
  } catch {
    throw new Error(`not JSON: ${body.slice(0, 200)}`);
  }
}
function postJson(url, body) {
  return new Promise((resolve4, reject) => {
    const req = httpRequest2(
      url,
      { method: "POST", timeout: 1e4, headers: { "content-type": "application/json" } },
      (res) => {
        let answer = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          answer += d;
        });
        res.on(
          "end",
          () => res.statusCode === 200 ? resolve4() : reject(
            new Error(`POST ${url} ${body}: HTTP ${res.statusCode}: ${answer.trim().slice(0, 300)}`)
          )
        );
      }
    );
    req.on("timeout", () => req.destroy(new Error(`POST ${url}: no answer within 10s`)));
    req.on("error", reject);
    req.end(body);
  });
}

// action/src/targets/tidb/counting.ts
var COUNTING_FILE = "tiperf_counting.go";
var COUNTERS_SOCKET_ENV = "TIPERF_COUNTERS_SOCKET";
var GO_STATEMENTS = "go_statements_total";
var COUNTING_GO = `// Added by tiperf to a counting build (go build -cover); not part of the tree. It serves this
// process's coverage counters on the Unix socket named by ${COUNTERS_SOCKET_ENV}, so that the Go
// statements executed over a window can be read (runtime/coverage, Go 1.20 or later).
package main

import (
	"net"
	"net/http"
	"os"
	"runtime/coverage"
)

func init() {
	socket := os.Getenv("${COUNTERS_SOCKET_ENV}")
	if socket == "" {
		return
	}
	_ = os.Remove(socket)
	ln, err := net.Listen("unix", socket)
	if err != nil {
		os.Stderr.WriteString("tiperf counting build: cannot serve counters on " + socket + ": " + err.Error() + "\\n")
		os.Exit(1)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/meta", func(w http.ResponseWriter, _ *http.Request) {
		if err := coverage.WriteMeta(w); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/counters", func(w http.ResponseWriter, _ *http.Request) {
		if err := coverage.WriteCounters(w); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	go func() { _ = http.Serve(ln, mux) }()
}
`;
function moduleOf(tree) {
  const file = join15(tree, "go.mod");
  const m = existsSync6(file) ? /^module\s+(\S+)/m.exec(readFileSync5(file, "utf8")) : null;
  if (!m)
    throw new InputError(`target.source.count: ${file} names no module: a counting build needs a Go module`);
  return m[1];
}
function countingBuild(tree, count, env) {
  const main = join15(tree, count.main);
  if (!existsSync6(main))
    throw new InputError(
      `target.source.count.main: ${count.main} is not a directory of the checkout (the main package of tidb-server, like cmd/tidb-server)`
    );
  const flags = coverFlags(count.packages?.length ? count.packages : [`${moduleOf(tree)}/...`]);
  return {
    file: join15(main, COUNTING_FILE),
    env: { ...env, GOFLAGS: env.GOFLAGS ? `${env.GOFLAGS} ${flags}` : flags }
  };
}
var coverFlags = (packages) => `-cover -covermode=atomic -coverpkg=${packages.join(",")}`;
function metaHash(meta) {
  if (meta.length < 40 || meta.readUInt32BE(0) !== 6518381)
    throw new Error("not a Go coverage meta-data file (is the binary a counting build, go build -cover?)");
  return meta.subarray(24, 40).toString("hex");
}
function statementsPerFile(textfmt) {
  const out = /* @__PURE__ */ new Map();
  for (const line of textfmt.split("\n")) {
    const m = /^(.+):\d+\.\d+,\d+\.\d+ (\d+) (\d+)$/.exec(line);
    if (!m) continue;
    const file = m[1];
    const n = Number(m[2]) * Number(m[3]);
    if (n === 0 || file.endsWith(`/${COUNTING_FILE}`)) continue;
    out.set(file, (out.get(file) ?? 0) + n);
  }
  return out;
}
function goName(pkg, fn) {
  const m = /^\*([^.]+)\.(.+)$/.exec(fn);
  return m ? `${pkg}.(*${m[1]}).${m[2]}` : `${pkg}.${fn}`;
}
function statementsPerFunction(dump) {
  const out = /* @__PURE__ */ new Map();
  let pkg = "";
  let fn = "";
  let file = "";
  for (const line of dump.split("\n")) {
    const header = /^(Package path|Func|Srcfile): (.+)$/.exec(line);
    if (header) {
      const [, key, value] = header;
      if (key === "Package path") pkg = value;
      else if (key === "Func") fn = value;
      else file = value;
      continue;
    }
    const m = /^\d+: L\d+:C\d+ -- L\d+:C\d+ NS=(\d+) = (\d+)$/.exec(line);
    if (!m || !fn || file.endsWith(`/${COUNTING_FILE}`)) continue;
    const n = Number(m[1]) * Number(m[2]);
    if (n === 0) continue;
    const name = goName(pkg, fn);
    const entry = out.get(name) ?? { file, n: 0 };
    entry.n += n;
    out.set(name, entry);
  }
  return out;
}
var CodeCounters = class {
  constructor(socket, o = {}) {
    this.socket = socket;
    this.o = o;
  }
  socket;
  o;
  /** The directory holding the meta-data file, written once; each reading's counters beside a link to it. */
  meta;
  n = 0;
  get(path) {
    return getBytes({ socketPath: this.socket, path }, COUNTERS_TIMEOUT_MS).catch((e) => {
      throw new Error(`${this.socket} ${path}: ${e.message}`);
    });
  }
  /** The process's meta-data, fetched and written once (it does not change while it runs). */
  metaData() {
    this.meta ??= (async () => {
      const bytes = await this.get("/meta");
      const hash = metaHash(bytes);
      const dir = await mkdtemp2(join15(this.o.scratch ?? join15(this.socket, ".."), "counters-meta-"));
      const file = join15(dir, `covmeta.${hash}`);
      await writeFile5(file, bytes);
      return { dir, file, hash };
    })().catch((e) => {
      this.meta = void 0;
      throw e;
    });
    return this.meta;
  }
  /**
   * The process's counters now, written beside its meta-data and converted with `go tool covdata`
   * (`tool`: textfmt or debugdump), the tool's output returned.
   */
  async convert(tool) {
    const meta = await this.metaData();
    const counters = await this.get("/counters");
    const dir = join15(meta.dir, `reading-${this.n++}`);
    try {
      await mkdir8(dir);
      await link(meta.file, join15(dir, `covmeta.${meta.hash}`));
      await writeFile5(join15(dir, `covcounters.${meta.hash}.1.1`), counters);
      const out = join15(dir, "statements.txt");
      const go = this.o.go ?? "go";
      const args = ["tool", "covdata", tool, `-i=${dir}`, ...tool === "textfmt" ? [`-o=${out}`] : []];
      const r = await runCommand(go, args, { timeoutMs: 6e4, env: inherited() });
      if (r.code !== 0)
        throw new Error(`${go} ${args.join(" ")}: ${r.stderr.trim() || `exit ${r.code ?? r.signal}`}`);
      return tool === "textfmt" ? await readFile5(out, "utf8") : r.stdout;
    } finally {
      await rm7(dir, { recursive: true, force: true });
    }
  }
  /** The statements each file executed so far, as counters `tidb:go_statements_total{file="…"}`. */
  async read() {
    const result = {};
    for (const [file, n] of statementsPerFile(await this.convert("textfmt")))
      result[counterKey("tidb", seriesKey(GO_STATEMENTS, { file }))] = n;
    return result;
  }
  /** The statements each function executed so far (a regressed cell's code profile, code-profile.ts). */
  async functions() {
    const out = statementsPerFunction(await this.convert("debugdump"));
    if (!out.size)
      throw new Error(
        "go tool covdata debugdump named no function that executed (has its output's format changed?)"
      );
    return out;
  }
};

// action/src/targets/tidb/deployments/local/args.ts
var serverSlots = (d) => ({
  port: `<port of ${d.name}>`,
  status: `<status port of ${d.name}>`,
  dir: `<workdir of ${d.name}>`
});
var serverProgram = (d, tiupHome2) => d.binpath ?? `${tiupHome2}/components/tidb/${d.version}/tidb-server`;
var serverCopy = (d) => `${serverSlots(d).dir}/bin/tidb-server`;
function serverArgs(d, dir) {
  const slot = serverSlots(d);
  return [
    serverCopy(d),
    "-store",
    "unistore",
    "-path",
    `${slot.dir}/data`,
    "-host",
    "127.0.0.1",
    "-P",
    slot.port,
    "-status",
    slot.status,
    "-status-host",
    "127.0.0.1",
    "-temp-dir",
    `${slot.dir}/tmp`,
    "-socket",
    `${slot.dir}/tidb.sock`,
    "-log-file",
    `${slot.dir}/tidb.log`,
    // else TiDB writes tidb-slow.log into whatever directory it was started from
    "-log-slow-query",
    `${slot.dir}/tidb-slow.log`,
    ...d.configFile ? ["-config", `${dir}/${d.configFile}`, "-config-strict"] : []
  ];
}
var serverEnv = (d) => d.counting ? { [COUNTERS_SOCKET_ENV]: countersSocket(d) } : void 0;
var countersSocket = (d) => `${serverSlots(d).dir}/counters.sock`;
var serverStatus = (d) => ({
  tidb: [`127.0.0.1:${serverSlots(d).status}`],
  tikv: [],
  pd: [],
  tiflash: []
});

// action/src/targets/tidb/deployments/local/run.ts
import { join as join17 } from "node:path";

// action/src/targets/tidb/deployments/local/server.ts
import { chmod as chmod2, copyFile as copyFile2, mkdir as mkdir9, readFile as readFile6, rm as rm8 } from "node:fs/promises";
import { basename as basename5, dirname as dirname5, join as join16 } from "node:path";
function tidbStartFailure(log) {
  const lines = log.split("\n");
  const pick = (level) => lines.filter((l) => l.includes(`[${level}]`)).pop();
  const line = pick("FATAL") ?? pick("ERROR");
  if (!line) {
    const plain2 = lines.find((l) => /contained invalid configuration options/.test(l));
    return plain2?.trim();
  }
  const err = /\[error="((?:[^"\\]|\\.)*)"\]/.exec(line)?.[1];
  const msg = /\] \["([^"]+)"\]/.exec(line)?.[1];
  return err ? err.replace(/\\"/g, '"') : msg;
}
function ensureProgram(program, d) {
  if (findTool(program) === void 0) {
    throw new RunError(
      d.binpath ? `target.binpath ${program}: not an executable file` : `tidb-server ${d.version}: tiup has not installed it (${program} is missing) and tiperf could not: run \`tiup install tidb:${d.version}\`, or give a build as target.binpath`
    );
  }
}
async function placeOf(d) {
  const slot = serverSlots(d);
  const workDir = await makeWorkDir("tidb");
  await mkdir9(join16(workDir, "tmp"), { recursive: true });
  const port2 = await privatePort();
  const statusPort = await privatePort();
  const fill = (text) => text.replaceAll(slot.status, String(statusPort)).replaceAll(slot.port, String(port2)).replaceAll(slot.dir, workDir);
  return { workDir, port: port2, statusPort, fill };
}
async function copyProgram(from, to) {
  await rm8(to, { force: true });
  await mkdir9(dirname5(to), { recursive: true });
  await copyFile2(from, to);
  await chmod2(to, 493);
}
async function startTidbServer(o) {
  const { d } = o;
  const { workDir, port: port2, statusPort, fill } = await placeOf(d);
  const argv = o.command.map(fill);
  const program = argv[0];
  ensureProgram(o.program, d);
  await copyProgram(o.program, program);
  const logFile = join16(workDir, "tidb.log");
  const stdout = join16(workDir, "stdout.log");
  const what = `TiDB ${d.name}`;
  const spawn2 = () => startServerProcess(program, argv.slice(1), {
    logFile: stdout,
    env: {
      ...Object.fromEntries(Object.entries(o.env ?? {}).map(([k, v]) => [k, fill(v)])),
      TMPDIR: join16(workDir, "tmp")
    }
  });
  let removeCgroup;
  const settle = async (s) => {
    const ready2 = () => getJson(`http://127.0.0.1:${statusPort}/status`).then(
      () => true,
      () => false
    );
    await waitReady(what, s, ready2, o.readyMs ?? 12e4);
    if (o.resources?.cpu_quota !== void 0)
      removeCgroup = (await applyResources(s.pid, o.resources.cpu_quota, `tidb-${basename5(workDir)}`)).remove;
    if (o.resources?.cpus !== void 0)
      await pinProcesses(await processTree(s.pid), o.resources.cpus, "target.resources.cpus");
  };
  const uncgroup = async () => {
    await removeCgroup?.();
    removeCgroup = void 0;
  };
  const server = spawn2();
  const life = lifecycle({
    what,
    server,
    workDir,
    // the slow query log too: which statements were slow is what a regression hunt reads first
    logs: [logFile, stdout, join16(workDir, "tidb-slow.log")],
    logDir: o.logDir,
    stopSignal: "SIGTERM",
    beforeRemove: uncgroup
  });
  try {
    await settle(server);
  } catch (e) {
    const said = tidbStartFailure(
      await readFile6(logFile, "utf8").catch(() => "") + await readFile6(stdout, "utf8").catch(() => "")
    );
    await life.stop().catch(() => {
    });
    if (e instanceof StartupError)
      throw new RunError(
        `${what} did not start${said ? `: ${said}` : ` (${e.message})`}
  \`${shellCommand(argv)}\`
  logs kept in ${o.logDir}`
      );
    throw e;
  }
  const restart = () => life.restart(async () => {
    await uncgroup();
    await copyProgram(o.program, program);
    const next = spawn2();
    try {
      await settle(next);
    } catch (e) {
      await next.stop("SIGTERM", 3e4).catch(() => {
      });
      throw e;
    }
    return next;
  });
  return { life, port: port2, statusPort, workDir, fill, restart };
}

// action/src/targets/tidb/deployments/local/run.ts
var servers = /* @__PURE__ */ new WeakMap();
function serverOf(r) {
  const local = servers.get(r);
  if (!local) throw new Error(`no private tidb-server started for ${r.deployment.name}`);
  return local;
}
var serverRuntime = {
  targetKind: "tidb-server",
  build: (d) => d.binpath,
  async start(ctx, d, setup, signal) {
    const program = serverProgram(d, tiupHome());
    if (!d.binpath && findTool(program) === void 0 && findTool("tiup"))
      await ctx.tiupRun(ctx.argv(stepKey.install(d)), `install tidb ${d.version}`, signal, 900);
    const start = ctx.filled(stepKey.start(d));
    const local = await startOnFreePort(
      () => startTidbServer({
        d,
        command: start.run.command,
        env: start.run.env ?? {},
        program,
        logDir: ctx.logDirOf(setup.name) ?? join17(ctx.rawDir, d.name),
        ...setup.resources ? { resources: setup.resources } : {}
      }),
      (line) => ctx.log(`tidb-server ${d.name}: ${line}`)
    );
    ctx.addFill(local.fill);
    ctx.planned(stepKey.copy(d));
    ctx.planned(stepKey.start(d));
    ctx.log(
      `tidb-server ${d.name} (pid ${local.life.server.pid}) on 127.0.0.1:${local.port}, status ${local.statusPort}, data in ${local.workDir}`
    );
    const sql = { host: "127.0.0.1", port: local.port };
    const running = {
      deployment: d,
      endpoints: [sql],
      sql,
      status: serverStatus(d),
      pids: () => [local.life.server.pid],
      // a restart makes a new process: the death that counts is the current one's
      get died() {
        return local.life.died;
      },
      facts: () => ({ data_dir: dataDirFacts(local.workDir) }),
      stop: async () => {
        ctx.planned(stepKey.stop(d));
        await local.life.stop();
      },
      up: true,
      loaded: /* @__PURE__ */ new Set(),
      users: 0,
      restarts: 0,
      // the socket is in its work directory: a restart serves the same one
      counting: d.counting ? [new CodeCounters(local.fill(countersSocket(d)))] : []
    };
    for (const c of running.counting)
      await c.read().catch(async (e) => {
        await local.life.stop();
        throw new RunError(
          `tidb-server ${d.name} is to be a counting build (target.counting) but its counters cannot be read: ${e.message}`
        );
      });
    servers.set(running, local);
    return running;
  },
  state: (_d, r) => {
    const pid = serverOf(r).life.server.pid;
    return `tidb-server (pid ${pid}) is ${processState(pid)}`;
  },
  // its death is the run's `died`; nothing else to watch around a cell
  watch: async () => async () => void 0
};
var serverRestarts = {
  seconds: 8,
  async restart(ctx, d, setup, r) {
    const local = serverOf(r);
    const before = local.life.server.pid;
    ctx.planned(stepKey.restart(d));
    await local.restart();
    await ctx.checkConfig(setup, r);
    return `tidb-server ${d.name} pid ${before} \u2192 ${local.life.server.pid}`;
  }
};

// action/src/targets/tidb/deployments/local/index.ts
var serverForm = {
  name: "server",
  deploySeconds: 10,
  // a private tidb-server on unistore is up again in seconds (measured here: 3–6 s on 2 cores)
  restarts: serverRestarts,
  plan(o) {
    const deployments = [];
    const variants = o.variants.map((v, index) => {
      const config = o.roleConfig(v.target, "tidb");
      const configFile = Object.keys(config).length ? `${v.name}-tidb.toml` : void 0;
      if (configFile) o.files[configFile] = toToml(config);
      const binpath = binpathsOf(v.target).tidb;
      deployments.push({
        form: "server",
        name: o.variants.length > 1 ? `${o.prefix}-${v.name}` : o.prefix,
        index,
        version: v.target.version ?? "",
        variants: [v.name],
        ...binpath ? { binpath } : {},
        ...v.target.counting ? { counting: true } : {},
        ...configFile ? { configFile } : {}
      });
      return o.setupOf(v, index);
    });
    return { deployments, variants };
  },
  switching: (variants) => variants > 1 ? "separate-servers" : "none",
  // a private server's port is picked when it starts
  loadEndpoints: () => [{ host: "127.0.0.1", port: PORT_AT_START }],
  statusAddresses: serverStatus,
  startSteps(_plan, d, v, add, about) {
    if (!d.binpath)
      add(
        stepKey.install(d),
        "start",
        { command: ["tiup", "install", `tidb:${d.version}`] },
        `only if tiup has not installed tidb ${d.version} yet`,
        { variant: v.name }
      );
    add(
      stepKey.copy(d),
      "start",
      { command: ["cp", serverProgram(d, tiupHome()), serverCopy(d)] },
      `${about}: the program copied afresh into the server's work directory, at every start and restart (how a binary's file sits in the page cache is part of the instance)`,
      { variant: v.name }
    );
    add(
      stepKey.start(d),
      "start",
      { command: serverArgs(d, PLAN_DIR), ...serverEnv(d) ? { env: serverEnv(d) } : {} },
      `${about}${d.counting ? ", a counting build: its Go statements counted" : ""}: free ports on 127.0.0.1 and a fresh work directory picked at start; ready when /status answers; runs until teardown`,
      { variant: v.name }
    );
  },
  blockSteps(_plan, d, add) {
    add(
      stepKey.restart(d),
      "restart",
      {
        command: [
          `kill -TERM <pid of ${d.name}>`,
          shellCommand(["cp", serverProgram(d, tiupHome()), serverCopy(d)]),
          envCommand(serverEnv(d), serverArgs(d, PLAN_DIR))
        ]
      },
      "before each block after the first (compare.blocks): a fresh process on the same data, from a fresh copy of its program"
    );
  },
  teardownSteps(_plan, d, add) {
    add(
      stepKey.stop(d),
      "teardown",
      { command: ["kill", "-TERM", `<pid of ${d.name}>`] },
      `then rm -rf ${serverSlots(d).dir} (its log kept in <run>/server/); always; \`tiperf reap\` if tiperf was killed`
    );
  },
  run: serverRuntime
};
var LOCAL = {
  provider: "local",
  about: "a private tidb-server per variant on this machine (unistore)",
  form: serverForm,
  servers: "embedded",
  checkProfile(p, issue) {
    noInstanceTypes(p, issue, Object.keys(CLOUDS));
    for (const key of ["hosts", "ssh"])
      if (p[key])
        issue(
          [key],
          `a local profile runs one tidb-server on this machine: ${key} belongs to provider hosts`
        );
    if (p.haproxy) issue(["haproxy"], "a local profile has one tidb-server and no load host: no HAProxy");
    if (p.monitoring) issue(["monitoring"], "a local profile has no monitoring; use provider hosts");
    for (const role of ["pd", "tikv", "tiflash"])
      if ((p.roles[role].count ?? 0) > 0 || p.roles[role].instances)
        issue(
          ["roles", role],
          `provider local runs tidb-server alone on its embedded store (unistore): no ${role}; use provider playground or hosts for a cluster`
        );
    const t = p.roles.tidb;
    if (t.count !== void 0 && t.count !== 1)
      issue(["roles", "tidb", "count"], "provider local runs one tidb-server per variant: count 1");
    for (const key of ["numa_node", "resource_control", "instances", "arch", "os"])
      if (t[key] !== void 0)
        issue(
          ["roles", "tidb", key],
          `provider local has no ${key}: a private tidb-server takes target.resources (cpus, cpu_quota)`
        );
  },
  checkTarget(t, profileFile) {
    const others = Object.keys(binpathsOf(t)).filter((r) => r !== "tidb");
    if (others.length)
      return `target.binpath.${others[0]}: ${profileFile} (provider local) runs one tidb-server on its embedded store, with no TiKV or PD: give only a tidb-server build`;
    return void 0;
  }
};

// action/src/targets/tidb/deployments/playground/ports.ts
var PLAYGROUND_PORT_OFFSET = 1e4;
var playgroundTidbPort = (d) => 4e3 + d.portOffset;
function playgroundStatus(d) {
  const off = d.portOffset;
  return {
    tidb: [`127.0.0.1:${10080 + off}`],
    tikv: [`127.0.0.1:${20180 + off}`],
    pd: [`127.0.0.1:${2379 + off}`],
    tiflash: [`127.0.0.1:${8234 + off}`]
  };
}

// action/src/targets/tidb/deployments/playground/reapers.ts
import { rm as rm9 } from "node:fs/promises";
import { basename as basename6 } from "node:path";
var playgroundReaper = {
  order: 0,
  describe: (e) => `stop ${e.what}${e.pid ? ` pid ${e.pid}` : ""} and remove ${e.path}`,
  async reap(e, log) {
    if (await stopRecorded(e.pid, basename6(e.path), "SIGINT", 3e4))
      log(`reap: stopped ${e.what} pid ${e.pid}`);
    await rm9(e.path, { recursive: true, force: true });
    log(`reap: removed ${e.path}`);
  }
};

// action/src/targets/tidb/deployments/playground/run.ts
import { readFile as readFile7, rm as rm10 } from "node:fs/promises";
import { join as join18 } from "node:path";
var playgrounds = /* @__PURE__ */ new WeakMap();
var playgroundRuntime = {
  targetKind: "tidb-playground",
  build: (d) => d.binpaths.tidb,
  async start(ctx, d, _setup, signal) {
    const argv = ctx.argv(stepKey.start(d));
    const logFile = join18(ctx.rawDir, `tiup-playground-${d.name}.log`);
    await writeAtomic(logFile, `$ ${shellCommand(argv)}
`);
    const dataDir = join18(tiupHome(), "data", d.name);
    const server = startServerProcess(tiupProgram(), argv.slice(1), { logFile });
    const forget = await record({
      resource: "playground",
      what: `tiup playground --tag ${d.name}`,
      pid: server.pid,
      path: dataDir,
      signal: "SIGINT"
    }).catch(() => async () => {
    });
    let stopping = false;
    const stop = async () => {
      stopping = true;
      ctx.planned(stepKey.stop(d));
      await server.stop("SIGINT", 6e4);
      await rm10(dataDir, { recursive: true, force: true });
      await forget();
    };
    const died = server.exited.then(
      (how) => stopping ? new Promise(() => {
      }) : `tiup playground ${d.name} exited (code ${how.code}, signal ${how.signal})`
    );
    const deadline = Date.now() + 15 * 6e4;
    let state = readPlayground("");
    while (Date.now() < deadline && !signal.aborted) {
      state = readPlayground(await readFile7(logFile, "utf8").catch(() => ""));
      if (state.ready && state.endpoints.length) break;
      if (!server.isAlive() || state.failure) {
        await stop();
        throw new RunError(
          `tiup playground ${d.name} did not start: ${state.failure ?? `it exited`}
(raw output: ${logFile})`
        );
      }
      await new Promise((res) => setTimeout(res, 250));
    }
    if (!state.ready) {
      await stop();
      throw new RunError(
        `tiup playground ${d.name} did not report ready ("TiDB Playground Cluster is started") within 15 min${signal.aborted ? " (stopped)" : ""} (raw output: ${logFile})`
      );
    }
    const sql = state.endpoints[0];
    const expected = playgroundTidbPort(d);
    if (sql.port !== expected)
      ctx.log(
        `tiup playground ${d.name}: port ${expected} was busy; TiDB listens on ${sql.port} (read from its output)`
      );
    const running = {
      deployment: d,
      endpoints: state.endpoints,
      sql,
      status: playgroundStatus(d),
      pids: () => [server.pid],
      died,
      stop,
      up: true,
      loaded: /* @__PURE__ */ new Set(),
      users: 0,
      restarts: 0,
      counting: []
    };
    playgrounds.set(running, server);
    return running;
  },
  state: (_d, r) => {
    const server = playgrounds.get(r);
    return server ? `tiup playground (pid ${server.pid}) is ${processState(server.pid)}` : "not started";
  },
  watch: async (_ctx, _setup, d, r) => async () => playgrounds.get(r)?.isAlive() === false ? `tiup playground ${d.name} is gone` : void 0
};

// action/src/targets/tidb/deployments/playground/index.ts
var PLAYGROUND_FLAG = { pd: "pd", tikv: "kv", tidb: "db", tiflash: "tiflash" };
function playgroundArgs(d, dir) {
  return [
    "tiup",
    "playground",
    d.version,
    ...ROLES.flatMap((r) => [`--${PLAYGROUND_FLAG[r]}`, String(d.counts[r])]),
    "--without-monitor",
    "--tag",
    d.name,
    ...d.portOffset ? ["--port-offset", String(d.portOffset)] : [],
    ...ROLES.flatMap(
      (r) => d.configFiles[r] ? [`--${PLAYGROUND_FLAG[r]}.config`, `${dir}/${d.configFiles[r]}`] : []
    ),
    ...["tidb", "tikv", "pd"].flatMap(
      (r) => d.binpaths[r] ? [`--${PLAYGROUND_FLAG[r]}.binpath`, d.binpaths[r]] : []
    )
  ];
}
var playgroundForm = {
  name: "playground",
  reapers: { playground: playgroundReaper },
  deploySeconds: 60,
  restarts: {
    cannot: `is a playground, which cannot restart its servers without losing its data: use compare.blocks: 1, or a profile with provider hosts or ${Object.keys(CLOUDS).join(", ")}`
  },
  plan(o) {
    const deployments = [];
    const variants = o.variants.map((v, index) => {
      const roles = effectiveRoles(o.profile, v.target);
      const configFiles = {};
      for (const role of ROLES) {
        const config = o.roleConfig(v.target, role);
        if (Object.keys(config).length === 0) continue;
        const file = `${v.name}-${role}.toml`;
        o.files[file] = toToml(config);
        configFiles[role] = file;
      }
      deployments.push({
        form: "playground",
        name: o.variants.length > 1 ? `${o.prefix}-${v.name}` : o.prefix,
        index,
        version: v.target.version ?? "",
        variants: [v.name],
        counts: Object.fromEntries(ROLES.map((r) => [r, roles[r].count ?? 0])),
        portOffset: index * PLAYGROUND_PORT_OFFSET,
        configFiles,
        binpaths: binpathsOf(v.target)
      });
      return o.setupOf(v, index);
    });
    return { deployments, variants };
  },
  switching: (variants) => variants > 1 ? "separate-playgrounds" : "none",
  loadEndpoints: (_plan, d) => [{ host: "127.0.0.1", port: playgroundTidbPort(d) }],
  statusAddresses: playgroundStatus,
  startSteps(_plan, d, v, add, about) {
    add(
      stepKey.start(d),
      "start",
      { command: playgroundArgs(d, PLAN_DIR) },
      `${about}: runs until teardown; ready when it prints "TiDB Playground Cluster is started"; the TiDB port is read from its "Connect TiDB" lines`,
      { variant: v.name }
    );
  },
  blockSteps() {
  },
  teardownSteps(_plan, d, add) {
    add(
      stepKey.stop(d),
      "teardown",
      { command: ["kill", "-INT", "<tiup playground pid>"] },
      `then rm -rf $TIUP_HOME/data/${d.name}; always; \`tiperf reap\` if tiperf was killed`
    );
  },
  run: playgroundRuntime
};
var PLAYGROUND = {
  provider: "playground",
  about: "tiup playground per variant on this machine",
  servers: "tiup",
  form: playgroundForm,
  checkProfile(p, issue) {
    noInstanceTypes(p, issue, Object.keys(CLOUDS));
    for (const key of ["hosts", "ssh"])
      if (p[key]) issue([key], `a playground runs on this machine: ${key} belongs to provider hosts`);
    if (p.haproxy) issue(["haproxy"], "a playground has no load host for HAProxy; use provider hosts");
    if (p.monitoring)
      issue(
        ["monitoring"],
        "tiperf starts playgrounds with --without-monitor; use provider hosts for monitoring"
      );
    for (const role of ROLES) {
      const r = p.roles[role];
      for (const key of ["numa_node", "resource_control", "instances", "arch", "os"])
        if (r[key] !== void 0)
          issue(
            ["roles", role, key],
            `tiup playground has no ${key} option; use a profile with provider hosts`
          );
      if (r.count === void 0) issue(["roles", role, "count"], "a playground role needs a count");
    }
  },
  checkTarget: releaseTarget("playground")
};

// action/src/targets/tidb/deployments/registry.ts
var DEPLOYERS = {
  local: LOCAL,
  playground: PLAYGROUND,
  hosts: HOSTS,
  endpoint: ENDPOINT,
  kubernetes: KUBERNETES,
  ...CLOUD_DEPLOYERS
};
var PROVIDERS = Object.keys(DEPLOYERS);
function deployerOf(provider) {
  const d = DEPLOYERS[provider];
  if (!d) throw new Error(`no TiDB provider ${provider} (providers: ${PROVIDERS.join(", ")})`);
  return d;
}
function formOf(d) {
  const form = Object.values(DEPLOYERS).find((x) => x.form?.name === d.form)?.form;
  if (!form) throw new Error(`no deployment form ${d.form}`);
  return form;
}
function formReapers() {
  return Object.assign({}, ...Object.values(DEPLOYERS).map((d) => d.form?.reapers ?? {}));
}

// action/src/targets/tidb/deprecated.ts
var DEPRECATED = [
  {
    role: "tikv",
    key: /^rocksdb\.(defaultcf|writecf|lockcf)\.block-cache-size$/,
    since: "v6.6.0",
    use: "storage.block-cache.capacity (one block cache shared by every column family)",
    source: "docs.pingcap.com/tidb/stable/tikv-configuration-file#block-cache-size"
  },
  {
    role: "tikv",
    key: /^raftdb\.defaultcf\.block-cache-size$/,
    since: "v6.6.0",
    use: "storage.block-cache.capacity",
    source: "docs.pingcap.com/tidb/stable/tikv-configuration-file#block-cache-size"
  },
  {
    role: "tidb",
    key: /^prepared-plan-cache\.enabled$/,
    since: "v6.1.0",
    use: "the system variable tidb_enable_prepared_plan_cache (target.sql: SET GLOBAL tidb_enable_prepared_plan_cache = ON)",
    source: "docs.pingcap.com/tidb/stable/tidb-configuration-file#prepared-plan-cache"
  },
  {
    // pingcap/tidb#34643 made it a system variable: the key is read only when a store bootstrapped
    // before v6.1.0 is upgraded, so a fresh server still auto-analyzes (and SHOW CONFIG shows false)
    role: "tidb",
    key: /^performance\.run-auto-analyze$/,
    since: "v6.1.0",
    use: "the system variable tidb_enable_auto_analyze (target.sql: SET GLOBAL tidb_enable_auto_analyze = OFF)",
    source: "docs.pingcap.com/tidb/stable/system-variables#tidb_enable_auto_analyze-new-in-v610"
  },
  {
    role: "tikv",
    key: /^log-level$/,
    since: "v5.4.0",
    use: "log.level",
    source: "docs.pingcap.com/tidb/stable/tikv-configuration-file#log-level"
  }
];
var parts = (v) => /^v(\d+)\.(\d+)\.(\d+)/.exec(v)?.slice(1).map(Number);
function atLeast(version, since) {
  const a = parts(version);
  const b = parts(since);
  if (!a) return true;
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}
function deprecationWarnings(variants) {
  const out = /* @__PURE__ */ new Set();
  for (const v of variants)
    for (const k of v.configKeys)
      for (const d of DEPRECATED)
        if (d.role === k.role && d.key.test(k.key) && atLeast(v.version, d.since))
          out.add(
            `${k.role} config ${k.key} is deprecated since ${d.since} (${v.version || "this build"} does not honour it; variants ${variants.filter((x) => x.configKeys.some((c) => c.role === k.role && c.key === k.key)).map((x) => x.name).join(", ")}): use ${d.use} (${d.source})`
          );
  return [...out];
}

// action/src/targets/tidb/load-profile.ts
var CheckedProfileSchema = ProfileSchema.superRefine((p, ctx) => {
  const issue = (path, message) => ctx.addIssue({ code: "custom", path, message });
  const deployer = DEPLOYERS[p.provider];
  if (!deployer) {
    issue(["provider"], `must be one of ${PROVIDERS.join(", ")}`);
    return;
  }
  const sections = p;
  for (const other of Object.values(DEPLOYERS))
    if (other !== deployer) {
      for (const section of other.sections ?? [])
        if (sections[section] !== void 0) issue([section], `belongs to provider ${other.provider}`);
    }
  deployer.checkProfile(p, issue);
});
async function loadProfile(file, flag = "target.profile") {
  return parseProfile(await readProfileText(file, flag), file);
}
function parseProfile(text, file) {
  const yaml = parseYaml(text, file);
  if (yaml.raw === null || typeof yaml.raw !== "object" || Array.isArray(yaml.raw))
    throw new InputError(`${file}: a profile is a YAML mapping with keys name, provider, hosts, roles`);
  return validateYaml(CheckedProfileSchema, yaml, file);
}

// action/src/targets/tidb/endpoint.ts
async function tidbFacts(sql, take) {
  const version = await sql(take("tidb_version").sql);
  const facts = {
    tidb_version: version.replace(/\\n/g, "\n").split("\n").slice(0, 4).join("\n")
  };
  const status = take("status");
  if (status) {
    try {
      const r = await fetch(status.get, { signal: AbortSignal.timeout(5e3) });
      facts.status = r.ok ? await r.json() : `HTTP ${r.status}`;
    } catch (e) {
      facts.status = `not reachable: ${e.message}`;
    }
  }
  return facts;
}
var TIDB_ENDPOINT = {
  kind: "tidb",
  title: "TiDB",
  protocol: "mysql",
  versionSql: "SELECT VERSION()",
  facts: tidbFacts,
  factSteps: (ep) => ({
    tidb_version: { sql: "SELECT tidb_version()" },
    ...ep.status_port ? { status: { get: `http://${ep.host}:${ep.status_port}/status` } } : {}
  }),
  // the run's own tables only: fresh statistics, so auto-analyze does not fire during cells
  afterLoadStep: (database, table) => ({ sql: `ANALYZE TABLE ${database}.${table}` }),
  // the tidb-server's own counters, where the profile names its status port
  counters: {
    metrics: (ep) => ep.status_port ? ["cpu_ms_per_op", "alloc_kb_per_op", "mallocs_per_op", "gc_per_kop"] : [],
    source: (ep) => ep.status_port ? `the tidb-server's /metrics at ${ep.host}:${ep.status_port}` : "a TiDB endpoint without endpoint.status_port in its profile (the tidb-server's /metrics)",
    read: async (_sql, ep) => {
      const r = await fetch(`http://${ep.host}:${ep.status_port}/metrics`, {
        signal: AbortSignal.timeout(COUNTERS_TIMEOUT_MS)
      });
      if (!r.ok) return {};
      const text = await r.text();
      return { ...goServerCounters(text), ...promCounters(text, "tidb") };
    }
  }
};
var DEPLOYS = [
  { key: "version", why: "the version is what the endpoint runs (recorded from tidb_version())" },
  { key: "binpath", why: "a build needs a deployment" },
  { key: "source", why: "a build needs a deployment" },
  { key: "resources", why: "CPU limits bind a private tidb-server tiperf starts" },
  { key: "server_configs", why: "tiperf never reconfigures an endpoint" },
  { key: "roles", why: "an endpoint's topology is its own" },
  {
    key: "sql",
    why: "target.sql changes the cluster for everyone on it; on an endpoint tiperf runs none yet"
  },
  { key: "split", why: "split scatters regions of the whole cluster; on an endpoint tiperf runs none yet" }
];
async function tidbVariantProfiles(input, defaultProfile) {
  const files = input.variants.map(
    (v) => input.profile ?? v.target.profile ?? defaultProfile
  );
  const profiles = await Promise.all(files.map((f, i) => loadProfile(f, profileKey(input, i))));
  return profiles.map((p, i) => ({ file: files[i], profile: p, provider: p.provider }));
}
function tidbEndpointVariants(input, profiles) {
  const at2 = (name) => variantAt(input.variants.length, name);
  const refusals = [];
  const variants = [];
  for (const [i, v] of input.variants.entries()) {
    const t = v.target;
    const { file, profile: p } = profiles[i];
    for (const d of DEPLOYS)
      if (t[d.key] !== void 0)
        refusals.push(
          `${input.file}: ${at2(v.name)}target.${d.key}: ${file} is an existing TiDB (provider endpoint): ${d.why}. There tiperf compares a stored baseline (tiperf diff, --baseline) or two endpoints (a profile per variant)`
        );
    variants.push({
      name: v.name,
      target: v.target,
      file,
      profile: {
        name: p.name,
        ...p.description ? { description: p.description } : {},
        provider: "endpoint",
        endpoint: p.endpoint
      }
    });
  }
  return { variants, refusals };
}

// action/src/targets/tidb/plan.ts
function configKeysOf(variants, profile, profileFile) {
  const configKeys = new Map(
    variants.map((v) => [
      v.name,
      ROLES.flatMap(
        (role) => flatKeys(roleConfig(profile, v.target, role)).map(([key, value]) => ({ role, key, value }))
      )
    ])
  );
  for (const v of variants)
    for (const role of ROLES) {
      const count = v.target.roles?.[role]?.count ?? profile.roles[role].count;
      const keys = (configKeys.get(v.name) ?? []).filter((k) => k.role === role).map((k) => k.key);
      if (count === 0 && keys.length)
        throw new InputError(
          `${profileFile}: variant ${v.name} configures ${role} (${keys.slice(0, 3).join(", ")}${keys.length > 3 ? ", \u2026" : ""}: target.server_configs.${role} or roles.${role}.config) but runs no ${role} (roles.${role}.count is 0): give it instances, or remove that config`
        );
    }
  return configKeys;
}
function loadOf(profile) {
  const loadHost = profile.hosts?.load?.[0];
  return loadHost ? {
    host: loadHost,
    user: profile.ssh?.user ?? "tidb",
    port: profile.ssh?.port ?? 22,
    ...profile.ssh?.identity_file ? { identity: profile.ssh.identity_file } : {}
  } : { host: "127.0.0.1" };
}
function planTidb(o) {
  const { profile } = o;
  const form = deployerOf(profile.provider).form;
  if (!form)
    throw new InputError(
      `${o.profileFile}: provider ${profile.provider} deploys nothing: it is measured as an endpoint`
    );
  const files = {};
  const configKeys = configKeysOf(o.variants, profile, o.profileFile);
  const planned = form.plan({
    variants: o.variants,
    profile,
    profileFile: o.profileFile,
    prefix: o.prefix,
    files,
    roleConfig: (target, role) => roleConfig(profile, target, role),
    setupOf: (v, deployment, topologyFile) => ({
      name: v.name,
      deployment,
      version: v.target.version ?? "",
      ...topologyFile ? { topologyFile } : {},
      configKeys: configKeys.get(v.name) ?? [],
      sql: v.target.sql ?? [],
      ...v.target.split ? { split: v.target.split } : {},
      ...v.target.resources ? { resources: v.target.resources } : {}
    })
  });
  const { deployments, variants } = planned;
  const switching = form.switching(o.variants.length, deployments);
  checkSqlSwitching(variants, deployments);
  const plan = {
    profile,
    profileFile: o.profileFile,
    deployments,
    variants,
    switching,
    grouped: form.turns?.grouped(switching, deployments) ?? false,
    files,
    ...planned.haproxy ? { haproxy: planned.haproxy } : {},
    load: loadOf(profile),
    steps: []
  };
  plan.steps = stepsOf(plan, o.data, o.loads ?? []);
  return plan;
}
function checkSqlSwitching(variants, deployments) {
  const setVars = (sql) => sql.flatMap(
    (s) => [...s.matchAll(/SET\s+(?:GLOBAL\s+|@@GLOBAL\.)(\w+)/gi)].map((m) => m[1].toLowerCase())
  ).sort().join(",");
  for (const d of deployments) {
    const shared = variants.filter((v) => v.deployment === d.index);
    if (shared.length < 2) continue;
    const first = shared[0];
    for (const v of shared.slice(1)) {
      if (setVars(v.sql) !== setVars(first.sql))
        throw new InputError(
          `variants ${first.name} and ${v.name} share cluster ${d.name} but their target.sql set different variables (${setVars(first.sql) || "none"} vs ${setVars(v.sql) || "none"}): set the same variables in both, so switching between them restores each value`
        );
    }
  }
}
var loadEndpoints = (plan, d) => formOf(d).loadEndpoints(plan, d);
var SPLIT_DATABASE = "sbtest";
var regionsSql = () => "SHOW TABLE sbtest.sbtest1 REGIONS";
function rowRegions(out) {
  const regions = out.split("\n").map((l) => l.split("	")).filter((f) => f.length > 2);
  const rows = regions.filter((f) => /^t_\d+_r/.test(f[1])).length;
  return rows || Math.min(regions.length, 1);
}
function splitSql(version, n, rows, regions) {
  const table = `sbtest.sbtest${n}`;
  const major = /^v(\d+)\.(\d+)/.exec(version);
  const newScatter = !major || Number(major[1]) > 8 || Number(major[1]) === 8 && Number(major[2]) >= 4;
  const scatter = newScatter ? "SET SESSION tidb_scatter_region = 'table'" : "SET GLOBAL tidb_scatter_region = ON";
  return `${scatter}; SPLIT TABLE ${table} BETWEEN (0) AND (${rows}) REGIONS ${regions}; SPLIT TABLE ${table} INDEX k_${n} BETWEEN (0) AND (${rows}) REGIONS ${regions}`;
}
function globalsSet(sql) {
  return [...sql.matchAll(/SET\s+(?:GLOBAL\s+|@@GLOBAL\.)(\w+)\s*=\s*('[^']*'|"[^"]*"|[^,;\s]+)/gi)].map(
    (m) => ({
      name: m[1].toLowerCase(),
      value: m[2].replace(/^['"]|['"]$/g, "")
    })
  );
}
function readBackSteps({ v, form, add, about, checks }, status) {
  for (const role of new Set(v.configKeys.map((k) => k.role))) {
    const keys = v.configKeys.filter((k) => k.role === role).map((k) => k.key);
    if (form.configBySql?.includes(role)) {
      add(
        stepKey.showConfig(v, role),
        "record",
        { sql: showConfigSql(role, keys) },
        `${about}: through TiDB (this machine does not reach ${role}'s status port); every ${role} instance it reports must show ${keys.join(", ")} as the spec sets`,
        { variant: v.name, where: checks }
      );
      continue;
    }
    for (const addr of status[role])
      add(
        stepKey.config(v, role, addr),
        "record",
        { get: configUrl(role, addr) },
        `${about}: what SHOW CONFIG shows; ${keys.join(", ")} must match the spec`,
        { variant: v.name, where: checks }
      );
  }
}
function sqlAndRecordSteps({ v, add, about, checks }, status) {
  const on = { variant: v.name, where: checks };
  v.sql.forEach((s, i) => {
    add(stepKey.sql(v, i), "sql", { sql: s }, `${about}: target.sql, before every cell of the variant`, on);
    for (const g of globalsSet(s))
      add(
        stepKey.sqlCheck(v, g.name),
        "sql",
        { sql: `SELECT @@GLOBAL.${g.name}` },
        `${about}: must read ${g.value}, or the run fails`,
        on
      );
  });
  add(stepKey.version(v), "record", { sql: "SELECT tidb_version()" }, about, on);
  add(stepKey.status(v), "record", { get: `http://${status.tidb[0]}/status` }, `${about}: recorded`, on);
}
function dataSteps({ plan, v, add, about, checks }, data, loads) {
  const on = { variant: v.name, where: checks };
  if (v.split && data)
    for (let t = 1; t <= data.tables; t++)
      add(
        stepKey.split(v, SPLIT_DATABASE, t),
        "after-load",
        { sql: splitSql(v.version, t, data.table_size, v.split.regions) },
        `${about}: after prepare`,
        on
      );
  if (data && plan.variants.some((x) => x.split))
    add(
      stepKey.regions(v),
      "after-load",
      { sql: regionsSql() },
      `${about}: the regions of sbtest1's rows counted, recorded as split.regions (what a split difference did)`,
      on
    );
  for (const load of loads)
    for (const table of load.tables)
      add(
        stepKey.analyze(v, load.database, table),
        "after-load",
        { sql: `ANALYZE TABLE ${load.database}.${table}` },
        `${about}: after the load, so statistics are fresh and auto-analyze does not fire during cells`,
        on
      );
}
function stepsOf(plan, data, loads) {
  const out = [];
  const add = (key, phase, run, about, o = {}) => out.push({
    key,
    phase,
    where: o.where ?? "runner",
    run,
    ...o.variant ? { variant: o.variant } : {},
    ...about ? { about } : {}
  });
  const checks = plan.profile.ssh?.proxy ? "load host" : "runner";
  const started2 = /* @__PURE__ */ new Set();
  for (const v of plan.variants) {
    const d = plan.deployments[v.deployment];
    const form = formOf(d);
    const about = `variant ${v.name} on ${d.name}`;
    if (!started2.has(d.index)) {
      started2.add(d.index);
      form.startSteps(plan, d, v, add, about);
    }
    const switched = form.turns?.switchIn(plan, d, v, add) ?? false;
    const status = form.statusAddresses(d);
    const vs = { plan, v, form, add, about, checks };
    if (switched) readBackSteps(vs, status);
    sqlAndRecordSteps(vs, status);
    if (!switched) readBackSteps(vs, status);
    dataSteps(vs, data, loads);
  }
  for (const d of plan.deployments) formOf(d).blockSteps(plan, d, add);
  for (const d of [...plan.deployments].reverse()) formOf(d).teardownSteps(plan, d, add);
  return out;
}

// action/src/targets/tidb/run.ts
import { mkdir as mkdir11 } from "node:fs/promises";
import { join as join21 } from "node:path";

// action/src/targets/tidb/checks.ts
function sameSetting(want, got) {
  const norm = (v) => {
    const s = String(v).trim();
    const size = /^(\d+(?:\.\d+)?)\s*([KMGTP])(?:i?B)?$/i.exec(s);
    if (size)
      return String(Number(size[1]) * 1024 ** ("KMGTP".indexOf(size[2].toUpperCase()) + 1));
    if (/^(true|on)$/i.test(s)) return "true";
    if (/^(false|off)$/i.test(s)) return "false";
    return s;
  };
  const a = norm(want);
  const b = norm(got);
  const bool = (x) => x === "1" ? "true" : x === "0" ? "false" : x;
  return a === b || (a === "true" || a === "false" || b === "true" || b === "false") && bool(a) === bool(b);
}
function lookup(config, key) {
  let node = config;
  const parts2 = key.split(".");
  for (let i = 0; i < parts2.length; i++) {
    if (!node || typeof node !== "object") return void 0;
    const obj = node;
    let found = false;
    for (let j = parts2.length; j > i; j--) {
      const k = parts2.slice(i, j).join(".");
      if (k in obj) {
        node = obj[k];
        i = j - 1;
        found = true;
        break;
      }
    }
    if (!found) return void 0;
  }
  return node;
}
var ClusterChecks = class {
  constructor(via) {
    this.via = via;
  }
  via;
  /** One statement through the MySQL client; its output (-N -B); a failure in the client's words. */
  async sql(at2, query, what) {
    const args = [
      "--no-defaults",
      "-h",
      at2.host,
      "-P",
      String(at2.port),
      "-u",
      "root",
      "-D",
      "mysql",
      "-N",
      "-B",
      "-e",
      query
    ];
    const via = this.via();
    const r = via ? await runCommand("ssh", sshArgs(via, shellCommand(["mysql", ...args])), { timeoutMs: 12e4 }) : await runCommand(firstTool(MYSQL_CLIENTS), args, { timeoutMs: 12e4 });
    if (r.code !== 0)
      throw new RunError(
        `${what}: \`${query}\` failed on ${at2.host}:${at2.port}${via ? ` (from the load host ${via.host})` : ""}: ${r.stderr.trim() || r.stdout.trim()}`
      );
    return r.stdout;
  }
  /**
   * A component's HTTP API as bytes: from here, or with curl on the load host behind a bastion
   * (base64 over ssh, so a binary answer arrives whole). Waits at most `timeoutS` for it.
   */
  async getBytes(url, timeoutS = 10) {
    const via = this.via();
    if (!via) return getBytes(url, timeoutS * 1e3);
    const r = await runCommand(
      "ssh",
      sshArgs(
        via,
        `${shellCommand(["curl", "-sS", "--fail", "--max-time", String(timeoutS), url])} | base64 -w0`
      ),
      { timeoutMs: (timeoutS + 50) * 1e3 }
    );
    if (r.code !== 0) throw new Error(`curl on ${via.host}: ${r.stderr.trim() || `exit ${r.code}`}`);
    return Buffer.from(r.stdout.trim(), "base64");
  }
  /** A component's JSON API: from here, or with curl on the load host behind a bastion. */
  async getJson(url) {
    const body = (await this.getBytes(url)).toString("utf8");
    try {
      return JSON.parse(body);
    } catch {
      throw new Error(`not JSON: ${body.slice(0, 200)}`);
    }
  }
  /**
   * POSTs JSON to a component's API (what SET CONFIG sends to each TiKV and PD): from here, or
   * with curl on the load host behind a bastion. An answer other than 200 throws with its body.
   */
  async postJson(url, body) {
    const via = this.via();
    if (!via) return postJson(url, body);
    const r = await runCommand(
      "ssh",
      sshArgs(
        via,
        shellCommand([
          "curl",
          "-sS",
          "--max-time",
          "10",
          "-X",
          "POST",
          "-H",
          "Content-Type: application/json",
          "--data-binary",
          body,
          "-w",
          "\n%{http_code}",
          url
        ])
      ),
      { timeoutMs: 6e4 }
    );
    const lines = r.stdout.trimEnd().split("\n");
    const code = Number(lines.pop());
    if (r.code !== 0 || code !== 200)
      throw new Error(
        `POST ${url} ${body} from ${via.host}: ${r.code !== 0 ? r.stderr.trim() || `curl exit ${r.code}` : `HTTP ${code}: ${lines.join(" ").trim()}`}`
      );
  }
  /**
   * Reads every config key the variant sets from the components' own /config endpoints (what
   * SHOW CONFIG shows; `urlOf` gives the planned URL of a role's address) and fails on any that did
   * not take effect: tiup accepts and reloads configs it never checked. A role whose status APIs
   * this machine cannot reach (`bySql` answers for it: TiKV and PD inside a Kubernetes cluster) is
   * read through TiDB's SHOW CONFIG instead, every instance it reports checked.
   */
  async readBack(setup, status, urlOf, bySql) {
    const effective = {};
    const wrong = [];
    const shown = (got) => got === void 0 ? "(not reported)" : typeof got === "object" ? JSON.stringify(got) : String(got);
    const check = (role, where, key, want, got) => {
      effective[`${role}.${key}`] = shown(got);
      if (got === void 0 || !sameSetting(want, got))
        wrong.push(
          `${role} ${where}: ${key} is ${got === void 0 ? "not reported" : JSON.stringify(got)}, the spec sets ${JSON.stringify(want)}`
        );
    };
    for (const role of new Set(setup.configKeys.map((k) => k.role))) {
      const keys = setup.configKeys.filter((c) => c.role === role);
      const sql = bySql?.(role);
      if (sql) {
        const rows = parseShowConfig(await sql).filter((row) => row.type === role);
        const instances = [...new Set(rows.map((row) => row.instance))];
        if (!instances.length)
          wrong.push(`${role}: SHOW CONFIG reported no instance with ${keys.map((k) => k.key).join(", ")}`);
        for (const instance of instances)
          for (const k of keys)
            check(
              role,
              instance,
              k.key,
              k.value,
              rows.find((row) => row.instance === instance && row.name === k.key)?.value
            );
        continue;
      }
      for (const addr of status[role] ?? []) {
        let doc;
        try {
          doc = await this.getJson(urlOf(role, addr));
        } catch (e) {
          throw new RunError(
            `variant ${setup.name}: cannot read the ${role} config at ${configUrl(role, addr)} (${e.message})`
          );
        }
        for (const k of keys) check(role, addr, k.key, k.value, lookup(doc, k.key));
      }
    }
    if (wrong.length)
      throw new RunError(`variant ${setup.name}: configs did not take effect:
  ${wrong.join("\n  ")}`);
    return effective;
  }
};
function settingsOf(setup) {
  const config = {};
  for (const k of setup.configKeys) {
    const v = k.value;
    config[`${k.role}.${k.key}`] = typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? v : JSON.stringify(v);
  }
  if (setup.split) config["split.regions"] = setup.split.regions;
  return config;
}

// action/src/targets/tidb/load-host.ts
import { join as join19 } from "node:path";
function loadHostOf(plan, dir) {
  const l = plan.load;
  if (!l.user) return void 0;
  const knownHosts = join19(dir, "known_hosts");
  const proxy = plan.profile.ssh?.proxy;
  const identity = l.identity ? expandHome(l.identity) : void 0;
  const bastionKey = proxy?.identity_file ? expandHome(proxy.identity_file) : identity;
  return {
    host: l.host,
    user: l.user,
    port: l.port ?? 22,
    ...identity ? { identity } : {},
    knownHosts,
    ...proxy ? {
      jump: {
        host: proxy.host,
        user: proxy.user ?? l.user,
        port: proxy.port,
        ...bastionKey ? { identity: bastionKey } : {},
        knownHosts
      }
    } : {}
  };
}

// action/src/targets/tidb/status-reads.ts
import { mkdir as mkdir10, writeFile as writeFile7 } from "node:fs/promises";
import { join as join20 } from "node:path";

// action/src/targets/tidb/code-profile.ts
import { writeFile as writeFile6 } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

// node_modules/pprof-format/dist/esm/index.js
var __classPrivateFieldGet = function(receiver, state, kind, f) {
  if (kind === "a" && !f) throw new TypeError("Private accessor was defined without a getter");
  if (typeof state === "function" ? receiver !== state || !f : !state.has(receiver)) throw new TypeError("Cannot read private member from an object whose class did not declare it");
  return kind === "m" ? f : kind === "a" ? f.call(receiver) : f ? f.value : state.get(receiver);
};
var _StringTable_encodings;
var _StringTable_positions;
var lowMaxBig = 2n ** 32n - 1n;
var lowMax = 2 ** 32 - 1;
var lowMaxPlus1 = lowMax + 1;
var toUtf8 = typeof Buffer === "undefined" ? (value) => new TextEncoder().encode(value) : (value) => Buffer.from(value, "utf8");
function countNumberBytes(buffer) {
  if (!buffer.length)
    return 0;
  let i = 0;
  while (i < buffer.length && buffer[i++] >= 128)
    ;
  return i;
}
function decodeBigNumber(buffer) {
  if (!buffer.length)
    return BigInt(0);
  let value = BigInt(buffer[0] & 127);
  let i = 0;
  while (buffer[i++] >= 128) {
    value |= BigInt(buffer[i] & 127) << BigInt(7 * i);
  }
  return value;
}
function makeValue(value, offset = 0) {
  return { value, offset };
}
function getValue(mode, buffer) {
  switch (mode) {
    case kTypeVarInt:
      for (let i = 0; i < buffer.length; i++) {
        if (!(buffer[i] & 128)) {
          return makeValue(buffer.subarray(0, i + 1));
        }
      }
      return makeValue(buffer);
    case kTypeLengthDelim: {
      const offset = countNumberBytes(buffer);
      const size = decodeNumber(buffer);
      return makeValue(buffer.subarray(offset, Number(size) + offset), offset);
    }
    default:
      throw new Error(`Unrecognized value type: ${mode}`);
  }
}
function lowBits(number) {
  return typeof number !== "bigint" ? (number >>> 0) % lowMaxPlus1 : Number(number & lowMaxBig);
}
function highBits(number) {
  return typeof number !== "bigint" ? number / lowMaxPlus1 >>> 0 : Number(number >> 32n & lowMaxBig);
}
function long(number) {
  const sign = number < 0;
  if (sign)
    number = -number;
  let lo = lowBits(number);
  let hi = highBits(number);
  if (sign) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
    if (++lo > lowMax) {
      lo = 0;
      if (++hi > lowMax) {
        hi = 0;
      }
    }
  }
  return [hi, lo];
}
var kTypeVarInt = 0;
var kTypeLengthDelim = 2;
function decodeNumber(buffer) {
  const size = countNumberBytes(buffer);
  if (size > 4)
    return decodeBigNumber(buffer);
  if (!buffer.length)
    return 0;
  let value = buffer[0] & 127;
  let i = 0;
  while (buffer[i++] >= 128) {
    value |= (buffer[i] & 127) << 7 * i;
  }
  return value;
}
function decodeNumbers(buffer) {
  const values = [];
  let start = 0;
  for (let i = 0; i < buffer.length; i++) {
    if ((buffer[i] & 128) === 0) {
      values.push(decodeNumber(buffer.subarray(start, i + 1)));
      start = i + 1;
    }
  }
  return values;
}
function push(value, list2) {
  if (list2 == null) {
    return [value];
  }
  list2.push(value);
  return list2;
}
function pushAll(values, list2) {
  if (list2 == null) {
    return values;
  }
  for (const value of values) {
    list2.push(value);
  }
  return list2;
}
function measureNumber(number) {
  if (number === 0 || number === 0n)
    return 0;
  const [hi, lo] = long(number);
  const a = lo;
  const b = (lo >>> 28 | hi << 4) >>> 0;
  const c = hi >>> 24;
  if (c !== 0) {
    return c < 128 ? 9 : 10;
  }
  if (b !== 0) {
    if (b < 16384) {
      return b < 128 ? 5 : 6;
    }
    return b < 2097152 ? 7 : 8;
  }
  if (a < 16384) {
    return a < 128 ? 1 : 2;
  }
  return a < 2097152 ? 3 : 4;
}
function measureValue(value) {
  if (typeof value === "undefined")
    return 0;
  if (typeof value === "number" || typeof value === "bigint") {
    return measureNumber(value) || 1;
  }
  return value.length;
}
function measureArray(list2) {
  let size = 0;
  for (const item of list2) {
    size += measureValue(item);
  }
  return size;
}
function measureNumberField(number) {
  const length = measureNumber(number);
  return length ? 1 + length : 0;
}
function measureNumberArrayField(values) {
  let total = 0;
  for (const value of values) {
    total += measureNumber(value) || 1;
  }
  return total ? 1 + measureNumber(total) + total : 0;
}
function measureLengthDelimField(value) {
  const length = measureValue(value);
  return length ? 1 + measureNumber(length) + length : 0;
}
function measureLengthDelimArrayField(values) {
  let total = 0;
  for (const value of values) {
    total += measureLengthDelimField(value);
  }
  return total;
}
function encodeNumber(buffer, i, number) {
  if (number === 0 || number === 0n) {
    buffer[i++] = 0;
    return i;
  }
  let [hi, lo] = long(number);
  while (hi) {
    buffer[i++] = lo & 127 | 128;
    lo = (lo >>> 7 | hi << 25) >>> 0;
    hi >>>= 7;
  }
  while (lo > 127) {
    buffer[i++] = lo & 127 | 128;
    lo = lo >>> 7;
  }
  buffer[i++] = lo;
  return i;
}
var emptyTableToken = /* @__PURE__ */ Symbol();
var StringTable = class _StringTable {
  constructor(tok) {
    this.strings = new Array();
    _StringTable_encodings.set(this, new Array());
    _StringTable_positions.set(this, /* @__PURE__ */ new Map());
    if (tok !== emptyTableToken) {
      this.dedup("");
    }
  }
  get encodedLength() {
    let size = 0;
    for (const encoded of __classPrivateFieldGet(this, _StringTable_encodings, "f")) {
      size += encoded.length;
    }
    return size;
  }
  _encodeToBuffer(buffer, offset) {
    for (const encoded of __classPrivateFieldGet(this, _StringTable_encodings, "f")) {
      buffer.set(encoded, offset);
      offset += encoded.length;
    }
    return offset;
  }
  encode(buffer = new Uint8Array(this.encodedLength)) {
    this._encodeToBuffer(buffer, 0);
    return buffer;
  }
  static _encodeStringFromUtf8(stringBuffer) {
    const buffer = new Uint8Array(1 + stringBuffer.length + (measureNumber(stringBuffer.length) || 1));
    let offset = 0;
    buffer[offset++] = 50;
    offset = encodeNumber(buffer, offset, stringBuffer.length);
    if (stringBuffer.length > 0) {
      buffer.set(stringBuffer, offset);
    }
    return buffer;
  }
  static _encodeString(string) {
    return _StringTable._encodeStringFromUtf8(toUtf8(string));
  }
  dedup(string) {
    if (typeof string === "number")
      return string;
    if (!__classPrivateFieldGet(this, _StringTable_positions, "f").has(string)) {
      const pos = this.strings.push(string) - 1;
      __classPrivateFieldGet(this, _StringTable_positions, "f").set(string, pos);
      __classPrivateFieldGet(this, _StringTable_encodings, "f").push(_StringTable._encodeString(string));
    }
    return __classPrivateFieldGet(this, _StringTable_positions, "f").get(string);
  }
  _decodeString(buffer) {
    const string = new TextDecoder().decode(buffer);
    __classPrivateFieldGet(this, _StringTable_positions, "f").set(string, this.strings.push(string) - 1);
    __classPrivateFieldGet(this, _StringTable_encodings, "f").push(_StringTable._encodeStringFromUtf8(buffer));
  }
};
_StringTable_encodings = /* @__PURE__ */ new WeakMap(), _StringTable_positions = /* @__PURE__ */ new WeakMap();
function decode(buffer, decoder) {
  const data = {};
  let index = 0;
  while (index < buffer.length) {
    const field = buffer[index] >> 3;
    const mode = buffer[index] & 7;
    index++;
    const { offset, value } = getValue(mode, buffer.subarray(index));
    index += value.length + offset;
    decoder(data, field, value);
  }
  return data;
}
var ValueType = class _ValueType {
  static create(data) {
    return data instanceof _ValueType ? data : new _ValueType(data);
  }
  constructor(data) {
    this.type = data.type || 0;
    this.unit = data.unit || 0;
  }
  get length() {
    let total = 0;
    total += measureNumberField(this.type);
    total += measureNumberField(this.unit);
    return total;
  }
  _encodeToBuffer(buffer, offset = 0) {
    if (this.type) {
      buffer[offset++] = 8;
      offset = encodeNumber(buffer, offset, this.type);
    }
    if (this.unit) {
      buffer[offset++] = 16;
      offset = encodeNumber(buffer, offset, this.unit);
    }
    return offset;
  }
  encode(buffer = new Uint8Array(this.length)) {
    this._encodeToBuffer(buffer, 0);
    return buffer;
  }
  static decodeValue(data, field, buffer) {
    switch (field) {
      case 1:
        data.type = decodeNumber(buffer);
        break;
      case 2:
        data.unit = decodeNumber(buffer);
        break;
    }
  }
  static decode(buffer) {
    return new this(decode(buffer, this.decodeValue));
  }
};
var Label = class _Label {
  static create(data) {
    return data instanceof _Label ? data : new _Label(data);
  }
  constructor(data) {
    this.key = data.key || 0;
    this.str = data.str || 0;
    this.num = data.num || 0;
    this.numUnit = data.numUnit || 0;
  }
  get length() {
    let total = 0;
    total += measureNumberField(this.key);
    total += measureNumberField(this.str);
    total += measureNumberField(this.num);
    total += measureNumberField(this.numUnit);
    return total;
  }
  _encodeToBuffer(buffer, offset = 0) {
    if (this.key) {
      buffer[offset++] = 8;
      offset = encodeNumber(buffer, offset, this.key);
    }
    if (this.str) {
      buffer[offset++] = 16;
      offset = encodeNumber(buffer, offset, this.str);
    }
    if (this.num) {
      buffer[offset++] = 24;
      offset = encodeNumber(buffer, offset, this.num);
    }
    if (this.numUnit) {
      buffer[offset++] = 32;
      offset = encodeNumber(buffer, offset, this.numUnit);
    }
    return offset;
  }
  encode(buffer = new Uint8Array(this.length)) {
    this._encodeToBuffer(buffer, 0);
    return buffer;
  }
  static decodeValue(data, field, buffer) {
    switch (field) {
      case 1:
        data.key = decodeNumber(buffer);
        break;
      case 2:
        data.str = decodeNumber(buffer);
        break;
      case 3:
        data.num = decodeNumber(buffer);
        break;
      case 4:
        data.numUnit = decodeNumber(buffer);
        break;
    }
  }
  static decode(buffer) {
    return new this(decode(buffer, this.decodeValue));
  }
};
var Sample = class _Sample {
  static create(data) {
    return data instanceof _Sample ? data : new _Sample(data);
  }
  constructor(data) {
    this.locationId = data.locationId || [];
    this.value = data.value || [];
    this.label = (data.label || []).map(Label.create);
  }
  get length() {
    let total = 0;
    total += measureNumberArrayField(this.locationId);
    total += measureNumberArrayField(this.value);
    total += measureLengthDelimArrayField(this.label);
    return total;
  }
  _encodeToBuffer(buffer, offset = 0) {
    if (this.locationId.length) {
      buffer[offset++] = 10;
      offset = encodeNumber(buffer, offset, measureArray(this.locationId));
      for (const locationId of this.locationId) {
        offset = encodeNumber(buffer, offset, locationId);
      }
    }
    if (this.value.length) {
      buffer[offset++] = 18;
      offset = encodeNumber(buffer, offset, measureArray(this.value));
      for (const value of this.value) {
        offset = encodeNumber(buffer, offset, value);
      }
    }
    for (const label of this.label) {
      buffer[offset++] = 26;
      offset = encodeNumber(buffer, offset, label.length);
      offset = label._encodeToBuffer(buffer, offset);
    }
    return offset;
  }
  encode(buffer = new Uint8Array(this.length)) {
    this._encodeToBuffer(buffer, 0);
    return buffer;
  }
  static decodeValue(data, field, buffer) {
    switch (field) {
      case 1:
        data.locationId = pushAll(decodeNumbers(buffer), data.locationId);
        break;
      case 2:
        data.value = pushAll(decodeNumbers(buffer), data.value);
        break;
      case 3:
        data.label = push(Label.decode(buffer), data.label);
        break;
    }
  }
  static decode(buffer) {
    return new this(decode(buffer, this.decodeValue));
  }
};
var Mapping = class _Mapping {
  static create(data) {
    return data instanceof _Mapping ? data : new _Mapping(data);
  }
  constructor(data) {
    this.id = data.id || 0;
    this.memoryStart = data.memoryStart || 0;
    this.memoryLimit = data.memoryLimit || 0;
    this.fileOffset = data.fileOffset || 0;
    this.filename = data.filename || 0;
    this.buildId = data.buildId || 0;
    this.hasFunctions = !!data.hasFunctions;
    this.hasFilenames = !!data.hasFilenames;
    this.hasLineNumbers = !!data.hasLineNumbers;
    this.hasInlineFrames = !!data.hasInlineFrames;
  }
  get length() {
    let total = 0;
    total += measureNumberField(this.id);
    total += measureNumberField(this.memoryStart);
    total += measureNumberField(this.memoryLimit);
    total += measureNumberField(this.fileOffset);
    total += measureNumberField(this.filename);
    total += measureNumberField(this.buildId);
    total += measureNumberField(this.hasFunctions ? 1 : 0);
    total += measureNumberField(this.hasFilenames ? 1 : 0);
    total += measureNumberField(this.hasLineNumbers ? 1 : 0);
    total += measureNumberField(this.hasInlineFrames ? 1 : 0);
    return total;
  }
  _encodeToBuffer(buffer, offset = 0) {
    if (this.id) {
      buffer[offset++] = 8;
      offset = encodeNumber(buffer, offset, this.id);
    }
    if (this.memoryStart) {
      buffer[offset++] = 16;
      offset = encodeNumber(buffer, offset, this.memoryStart);
    }
    if (this.memoryLimit) {
      buffer[offset++] = 24;
      offset = encodeNumber(buffer, offset, this.memoryLimit);
    }
    if (this.fileOffset) {
      buffer[offset++] = 32;
      offset = encodeNumber(buffer, offset, this.fileOffset);
    }
    if (this.filename) {
      buffer[offset++] = 40;
      offset = encodeNumber(buffer, offset, this.filename);
    }
    if (this.buildId) {
      buffer[offset++] = 48;
      offset = encodeNumber(buffer, offset, this.buildId);
    }
    if (this.hasFunctions) {
      buffer[offset++] = 56;
      offset = encodeNumber(buffer, offset, 1);
    }
    if (this.hasFilenames) {
      buffer[offset++] = 64;
      offset = encodeNumber(buffer, offset, 1);
    }
    if (this.hasLineNumbers) {
      buffer[offset++] = 72;
      offset = encodeNumber(buffer, offset, 1);
    }
    if (this.hasInlineFrames) {
      buffer[offset++] = 80;
      offset = encodeNumber(buffer, offset, 1);
    }
    return offset;
  }
  encode(buffer = new Uint8Array(this.length)) {
    this._encodeToBuffer(buffer, 0);
    return buffer;
  }
  static decodeValue(data, field, buffer) {
    switch (field) {
      case 1:
        data.id = decodeNumber(buffer);
        break;
      case 2:
        data.memoryStart = decodeNumber(buffer);
        break;
      case 3:
        data.memoryLimit = decodeNumber(buffer);
        break;
      case 4:
        data.fileOffset = decodeNumber(buffer);
        break;
      case 5:
        data.filename = decodeNumber(buffer);
        break;
      case 6:
        data.buildId = decodeNumber(buffer);
        break;
      case 7:
        data.hasFunctions = !!decodeNumber(buffer);
        break;
      case 8:
        data.hasFilenames = !!decodeNumber(buffer);
        break;
      case 9:
        data.hasLineNumbers = !!decodeNumber(buffer);
        break;
      case 10:
        data.hasInlineFrames = !!decodeNumber(buffer);
        break;
    }
  }
  static decode(buffer) {
    return new this(decode(buffer, this.decodeValue));
  }
};
var Line = class _Line {
  static create(data) {
    return data instanceof _Line ? data : new _Line(data);
  }
  constructor(data) {
    this.functionId = data.functionId || 0;
    this.line = data.line || 0;
    this.column = data.column || 0;
  }
  get length() {
    let total = 0;
    total += measureNumberField(this.functionId);
    total += measureNumberField(this.line);
    total += measureNumberField(this.column);
    return total;
  }
  _encodeToBuffer(buffer, offset = 0) {
    if (this.functionId) {
      buffer[offset++] = 8;
      offset = encodeNumber(buffer, offset, this.functionId);
    }
    if (this.line) {
      buffer[offset++] = 16;
      offset = encodeNumber(buffer, offset, this.line);
    }
    if (this.column) {
      buffer[offset++] = 24;
      offset = encodeNumber(buffer, offset, this.column);
    }
    return offset;
  }
  encode(buffer = new Uint8Array(this.length)) {
    this._encodeToBuffer(buffer, 0);
    return buffer;
  }
  static decodeValue(data, field, buffer) {
    switch (field) {
      case 1:
        data.functionId = decodeNumber(buffer);
        break;
      case 2:
        data.line = decodeNumber(buffer);
        break;
      case 3:
        data.column = decodeNumber(buffer);
        break;
    }
  }
  static decode(buffer) {
    return new this(decode(buffer, this.decodeValue));
  }
};
var Location = class _Location {
  static create(data) {
    return data instanceof _Location ? data : new _Location(data);
  }
  constructor(data) {
    this.id = data.id || 0;
    this.mappingId = data.mappingId || 0;
    this.address = data.address || 0;
    this.line = (data.line || []).map(Line.create);
    this.isFolded = !!data.isFolded;
  }
  get length() {
    let total = 0;
    total += measureNumberField(this.id);
    total += measureNumberField(this.mappingId);
    total += measureNumberField(this.address);
    total += measureLengthDelimArrayField(this.line);
    total += measureNumberField(this.isFolded ? 1 : 0);
    return total;
  }
  _encodeToBuffer(buffer, offset = 0) {
    if (this.id) {
      buffer[offset++] = 8;
      offset = encodeNumber(buffer, offset, this.id);
    }
    if (this.mappingId) {
      buffer[offset++] = 16;
      offset = encodeNumber(buffer, offset, this.mappingId);
    }
    if (this.address) {
      buffer[offset++] = 24;
      offset = encodeNumber(buffer, offset, this.address);
    }
    for (const line of this.line) {
      buffer[offset++] = 34;
      offset = encodeNumber(buffer, offset, line.length);
      offset = line._encodeToBuffer(buffer, offset);
    }
    if (this.isFolded) {
      buffer[offset++] = 40;
      offset = encodeNumber(buffer, offset, 1);
    }
    return offset;
  }
  encode(buffer = new Uint8Array(this.length)) {
    this._encodeToBuffer(buffer, 0);
    return buffer;
  }
  static decodeValue(data, field, buffer) {
    switch (field) {
      case 1:
        data.id = decodeNumber(buffer);
        break;
      case 2:
        data.mappingId = decodeNumber(buffer);
        break;
      case 3:
        data.address = decodeNumber(buffer);
        break;
      case 4:
        data.line = push(Line.decode(buffer), data.line);
        break;
      case 5:
        data.isFolded = !!decodeNumber(buffer);
        break;
    }
  }
  static decode(buffer) {
    return new this(decode(buffer, this.decodeValue));
  }
};
var Function = class _Function {
  static create(data) {
    return data instanceof _Function ? data : new _Function(data);
  }
  constructor(data) {
    this.id = data.id || 0;
    this.name = data.name || 0;
    this.systemName = data.systemName || 0;
    this.filename = data.filename || 0;
    this.startLine = data.startLine || 0;
  }
  get length() {
    let total = 0;
    total += measureNumberField(this.id);
    total += measureNumberField(this.name);
    total += measureNumberField(this.systemName);
    total += measureNumberField(this.filename);
    total += measureNumberField(this.startLine);
    return total;
  }
  _encodeToBuffer(buffer, offset = 0) {
    if (this.id) {
      buffer[offset++] = 8;
      offset = encodeNumber(buffer, offset, this.id);
    }
    if (this.name) {
      buffer[offset++] = 16;
      offset = encodeNumber(buffer, offset, this.name);
    }
    if (this.systemName) {
      buffer[offset++] = 24;
      offset = encodeNumber(buffer, offset, this.systemName);
    }
    if (this.filename) {
      buffer[offset++] = 32;
      offset = encodeNumber(buffer, offset, this.filename);
    }
    if (this.startLine) {
      buffer[offset++] = 40;
      offset = encodeNumber(buffer, offset, this.startLine);
    }
    return offset;
  }
  encode(buffer = new Uint8Array(this.length)) {
    this._encodeToBuffer(buffer, 0);
    return buffer;
  }
  static decodeValue(data, field, buffer) {
    switch (field) {
      case 1:
        data.id = decodeNumber(buffer);
        break;
      case 2:
        data.name = decodeNumber(buffer);
        break;
      case 3:
        data.systemName = decodeNumber(buffer);
        break;
      case 4:
        data.filename = decodeNumber(buffer);
        break;
      case 5:
        data.startLine = decodeNumber(buffer);
        break;
    }
  }
  static decode(buffer) {
    return new this(decode(buffer, this.decodeValue));
  }
};
var Profile = class {
  constructor(data = {}) {
    this.sampleType = (data.sampleType || []).map(ValueType.create);
    this.sample = (data.sample || []).map(Sample.create);
    this.mapping = (data.mapping || []).map(Mapping.create);
    this.location = (data.location || []).map(Location.create);
    this.function = (data.function || []).map(Function.create);
    this.stringTable = data.stringTable || new StringTable();
    this.dropFrames = data.dropFrames || 0;
    this.keepFrames = data.keepFrames || 0;
    this.timeNanos = data.timeNanos || 0;
    this.durationNanos = data.durationNanos || 0;
    this.periodType = data.periodType ? ValueType.create(data.periodType) : void 0;
    this.period = data.period || 0;
    this.comment = data.comment || [];
    this.defaultSampleType = data.defaultSampleType || 0;
    this.docUrl = data.docUrl || 0;
  }
  get length() {
    let total = 0;
    total += measureLengthDelimArrayField(this.sampleType);
    total += measureLengthDelimArrayField(this.sample);
    total += measureLengthDelimArrayField(this.mapping);
    total += measureLengthDelimArrayField(this.location);
    total += measureLengthDelimArrayField(this.function);
    total += this.stringTable.encodedLength;
    total += measureNumberField(this.dropFrames);
    total += measureNumberField(this.keepFrames);
    total += measureNumberField(this.timeNanos);
    total += measureNumberField(this.durationNanos);
    total += measureLengthDelimField(this.periodType);
    total += measureNumberField(this.period);
    total += measureNumberArrayField(this.comment);
    total += measureNumberField(this.defaultSampleType);
    total += measureNumberField(this.docUrl);
    return total;
  }
  _encodeSampleTypesToBuffer(buffer, offset = 0) {
    for (const sampleType of this.sampleType) {
      buffer[offset++] = 10;
      offset = encodeNumber(buffer, offset, sampleType.length);
      offset = sampleType._encodeToBuffer(buffer, offset);
    }
    return offset;
  }
  _encodeSamplesToBuffer(buffer, offset = 0) {
    for (const sample of this.sample) {
      buffer[offset++] = 18;
      offset = encodeNumber(buffer, offset, sample.length);
      offset = sample._encodeToBuffer(buffer, offset);
    }
    return offset;
  }
  _encodeMappingsToBuffer(buffer, offset = 0) {
    for (const mapping of this.mapping) {
      buffer[offset++] = 26;
      offset = encodeNumber(buffer, offset, mapping.length);
      offset = mapping._encodeToBuffer(buffer, offset);
    }
    return offset;
  }
  _encodeLocationsToBuffer(buffer, offset = 0) {
    for (const location of this.location) {
      buffer[offset++] = 34;
      offset = encodeNumber(buffer, offset, location.length);
      offset = location._encodeToBuffer(buffer, offset);
    }
    return offset;
  }
  _encodeFunctionsToBuffer(buffer, offset = 0) {
    for (const fun of this.function) {
      buffer[offset++] = 42;
      offset = encodeNumber(buffer, offset, fun.length);
      offset = fun._encodeToBuffer(buffer, offset);
    }
    return offset;
  }
  _encodeBasicValuesToBuffer(buffer, offset = 0) {
    if (this.dropFrames) {
      buffer[offset++] = 56;
      offset = encodeNumber(buffer, offset, this.dropFrames);
    }
    if (this.keepFrames) {
      buffer[offset++] = 64;
      offset = encodeNumber(buffer, offset, this.keepFrames);
    }
    if (this.timeNanos) {
      buffer[offset++] = 72;
      offset = encodeNumber(buffer, offset, this.timeNanos);
    }
    if (this.durationNanos) {
      buffer[offset++] = 80;
      offset = encodeNumber(buffer, offset, this.durationNanos);
    }
    if (typeof this.periodType !== "undefined") {
      buffer[offset++] = 90;
      offset = encodeNumber(buffer, offset, this.periodType.length);
      offset = this.periodType._encodeToBuffer(buffer, offset);
    }
    if (this.period) {
      buffer[offset++] = 96;
      offset = encodeNumber(buffer, offset, this.period);
    }
    if (this.comment.length) {
      buffer[offset++] = 106;
      offset = encodeNumber(buffer, offset, measureArray(this.comment));
      for (const comment of this.comment) {
        offset = encodeNumber(buffer, offset, comment);
      }
    }
    if (this.defaultSampleType) {
      buffer[offset++] = 112;
      offset = encodeNumber(buffer, offset, this.defaultSampleType);
    }
    if (this.docUrl) {
      buffer[offset++] = 120;
      offset = encodeNumber(buffer, offset, this.docUrl);
    }
    return offset;
  }
  _encodeToBuffer(buffer, offset = 0) {
    offset = this._encodeSampleTypesToBuffer(buffer, offset);
    offset = this._encodeSamplesToBuffer(buffer, offset);
    offset = this._encodeMappingsToBuffer(buffer, offset);
    offset = this._encodeLocationsToBuffer(buffer, offset);
    offset = this._encodeFunctionsToBuffer(buffer, offset);
    offset = this.stringTable._encodeToBuffer(buffer, offset);
    offset = this._encodeBasicValuesToBuffer(buffer, offset);
    return offset;
  }
  async _encodeToBufferAsync(buffer, offset = 0) {
    offset = this._encodeSampleTypesToBuffer(buffer, offset);
    await new Promise(setImmediate);
    offset = this._encodeSamplesToBuffer(buffer, offset);
    await new Promise(setImmediate);
    offset = this._encodeMappingsToBuffer(buffer, offset);
    await new Promise(setImmediate);
    offset = this._encodeLocationsToBuffer(buffer, offset);
    await new Promise(setImmediate);
    offset = this._encodeFunctionsToBuffer(buffer, offset);
    await new Promise(setImmediate);
    offset = this.stringTable._encodeToBuffer(buffer, offset);
    await new Promise(setImmediate);
    offset = this._encodeBasicValuesToBuffer(buffer, offset);
    return offset;
  }
  encode(buffer = new Uint8Array(this.length)) {
    this._encodeToBuffer(buffer, 0);
    return buffer;
  }
  async encodeAsync(buffer = new Uint8Array(this.length)) {
    await this._encodeToBufferAsync(buffer, 0);
    return buffer;
  }
  static decodeValue(data, field, buffer) {
    switch (field) {
      case 1:
        data.sampleType = push(ValueType.decode(buffer), data.sampleType);
        break;
      case 2:
        data.sample = push(Sample.decode(buffer), data.sample);
        break;
      case 3:
        data.mapping = push(Mapping.decode(buffer), data.mapping);
        break;
      case 4:
        data.location = push(Location.decode(buffer), data.location);
        break;
      case 5:
        data.function = push(Function.decode(buffer), data.function);
        break;
      case 6: {
        if (data.stringTable === void 0) {
          data.stringTable = new StringTable(emptyTableToken);
        }
        data.stringTable._decodeString(buffer);
        break;
      }
      case 7:
        data.dropFrames = decodeNumber(buffer);
        break;
      case 8:
        data.keepFrames = decodeNumber(buffer);
        break;
      case 9:
        data.timeNanos = decodeNumber(buffer);
        break;
      case 10:
        data.durationNanos = decodeNumber(buffer);
        break;
      case 11:
        data.periodType = ValueType.decode(buffer);
        break;
      case 12:
        data.period = decodeNumber(buffer);
        break;
      case 13:
        data.comment = pushAll(decodeNumbers(buffer), data.comment);
        break;
      case 14:
        data.defaultSampleType = decodeNumber(buffer);
        break;
      case 15:
        data.docUrl = decodeNumber(buffer);
        break;
    }
  }
  static decode(buffer) {
    return new this(decode(buffer, this.decodeValue));
  }
};

// action/src/targets/tidb/code-profile.ts
var STATEMENTS_SAMPLE = { type: "statements", unit: "count" };
var LOAD_ENDS_S = 3;
function statementsProfile(functions) {
  const strings = new StringTable();
  const rows = [...functions].filter(([, f]) => f.n > 0);
  const id = (i) => i + 1;
  return Buffer.from(
    new Profile({
      sampleType: [
        new ValueType({
          type: strings.dedup(STATEMENTS_SAMPLE.type),
          unit: strings.dedup(STATEMENTS_SAMPLE.unit)
        })
      ],
      function: rows.map(
        ([name, f], i) => new Function({
          id: id(i),
          name: strings.dedup(name),
          systemName: strings.dedup(name),
          filename: strings.dedup(f.file)
        })
      ),
      location: rows.map((_, i) => new Location({ id: id(i), line: [new Line({ functionId: id(i) })] })),
      sample: rows.map(([, f], i) => new Sample({ locationId: [id(i)], value: [Math.round(f.n)] })),
      stringTable: strings
    }).encode()
  );
}
function windowStatements(before, after, ms, idle) {
  const out = /* @__PURE__ */ new Map();
  for (const [name, f] of after) {
    const ran = f.n - (before.get(name)?.n ?? 0);
    const background = idle && idle.ms > 0 ? ((idle.after.get(name)?.n ?? 0) - (idle.before.get(name)?.n ?? 0)) * ms / idle.ms : 0;
    const n = ran - Math.max(0, background);
    if (n > 0) out.set(name, { file: f.file, n });
  }
  return out;
}
async function codeProfile(counting, o) {
  const at2 = async () => {
    const t = performance.now();
    return { t, fns: await counting.functions() };
  };
  const profile = { component: "tidb-server", address: o.address, measures: "stmts" };
  try {
    const a = await at2();
    await sleep(o.seconds * 1e3);
    const b = await at2();
    await sleep(LOAD_ENDS_S * 1e3);
    const c = await at2();
    await sleep(CODE_IDLE_WINDOW_S * 1e3);
    const d = await at2();
    const fns = windowStatements(a.fns, b.fns, b.t - a.t, { before: c.fns, after: d.fns, ms: d.t - c.t });
    await writeFile6(o.file, statementsProfile(fns));
    return { ...profile, file: o.file };
  } catch (e) {
    return { ...profile, error: `counters of a counting build: ${e.message}` };
  }
}

// action/src/targets/tidb/status-reads.ts
async function cpuProfiles(at2, r, seconds, dir, prefix) {
  await mkdir10(dir, { recursive: true });
  const take = async (role, planned, kind) => {
    const component = `${role}-server`;
    const address = at2.fill(planned);
    const url = `http://${address}/debug/pprof/${kind === "cpu" ? "profile" : "allocs"}?seconds=${seconds}`;
    const file = join20(
      dir,
      `${prefix}-${component}-${address.replace(/[^\w.-]+/g, "_")}${kind === "cpu" ? "" : "-alloc"}.pprof`
    );
    try {
      const data = await at2.getBytes(url, seconds + 30);
      if (data.length === 0) throw new Error("an empty answer");
      await writeFile7(file, data);
      return { component, address, file, ...kind === "alloc" ? { measures: kind } : {} };
    } catch (e) {
      const via = at2.via();
      return {
        component,
        address,
        ...kind === "alloc" ? { measures: kind } : {},
        error: `GET ${url}${via ? ` (from ${via.host})` : ""}: ${e.message}`
      };
    }
  };
  const roles = ["tidb", "tikv"];
  const code = r.counting.map((c, i) => {
    const address = at2.fill(r.status.tidb?.[i] ?? `tidb-server ${i + 1}`);
    const file = join20(dir, `${prefix}-tidb-server-${address.replace(/[^\w.-]+/g, "_")}-stmts.pprof`);
    return codeProfile(c, { seconds, file, address });
  });
  return Promise.all([
    ...roles.flatMap(
      (role) => (r.status[role] ?? []).flatMap((a) => [
        take(role, a, "cpu"),
        ...role === "tidb" ? [take(role, a, "alloc")] : []
      ])
    ),
    ...code
  ]);
}
async function costCounters(at2, r) {
  const roles = ["tidb", "tikv", "pd"];
  const read2 = async (role, planned) => {
    const url = `http://${at2.fill(planned)}/metrics`;
    const text = await at2.getBytes(url, COUNTERS_TIMEOUT_MS / 1e3).then(
      (b) => b.toString("utf8"),
      () => void 0
    );
    return {
      role,
      counters: text === void 0 ? void 0 : goServerCounters(text),
      all: text === void 0 ? {} : promCounters(text, role)
    };
  };
  const [answers, code] = await Promise.all([
    Promise.all(roles.flatMap((role) => (r.status[role] ?? []).map((a) => read2(role, a)))),
    // a counting build's Go statements per source file (undefined: one did not answer)
    Promise.all(r.counting.map((c) => c.read().catch(() => void 0)))
  ]);
  if (answers.some((a) => a.counters === void 0) || code.some((c) => c === void 0)) return {};
  const out = {};
  const add = (k, v) => {
    if (v !== void 0) out[k] = (out[k] ?? 0) + v;
  };
  for (const counted of code) for (const [k, v] of Object.entries(counted ?? {})) add(k, v);
  const components = new Set(answers.map((a) => a.role));
  for (const { role, counters: c = {}, all } of answers) {
    for (const [k, v] of Object.entries(all)) add(k, v);
    add("cpu_s", c.cpu_s);
    if (components.size > 1) add(`cpu_s.${role}`, c.cpu_s);
    if (role !== "tidb") continue;
    add("alloc_bytes", c.alloc_bytes);
    add("mallocs", c.mallocs);
    add("gc_cycles", c.gc_cycles);
  }
  return out;
}

// action/src/targets/tidb/variant-sql.ts
function plannedSql(run, at2, key, what) {
  return run.checks.sql(at2, run.planned(key).run.sql, what);
}
function plannedUrl(run, key) {
  return run.planned(key).run.get;
}
async function recordFacts(run, setup, r) {
  const tidbVersion = (await plannedSql(run, r.sql, stepKey.version(setup), `variant ${setup.name}`)).replace(/\\n/g, "\n").trim();
  const version = /Release Version:\s*(\S+)/.exec(tidbVersion)?.[1] ?? tidbVersion.split("\n")[0] ?? "";
  const status = await run.checks.getJson(plannedUrl(run, stepKey.status(setup))).catch((e) => ({
    error: e.message
  }));
  const effective = await run.checkConfig(setup, r);
  return { version, tidbVersion, status, effective };
}
async function applyTargetSql(run, setup, r) {
  for (let i = 0; i < setup.sql.length; i++) {
    await plannedSql(run, r.sql, stepKey.sql(setup, i), `variant ${setup.name}: target.sql`);
    for (const g of globalsSet(setup.sql[i])) {
      const got = (await plannedSql(run, r.sql, stepKey.sqlCheck(setup, g.name), `variant ${setup.name}: target.sql`)).trim();
      if (!sameSetting(g.value, got))
        throw new RunError(
          `variant ${setup.name}: target.sql set ${g.name} = ${g.value} but SELECT @@GLOBAL.${g.name} reads ${got}`
        );
    }
  }
}
async function afterLoad(run, setup, r, load, effective) {
  const data = load.sysbench;
  if (setup.split && data) {
    for (let t = 1; t <= data.tables; t++)
      await plannedSql(run, r.sql, stepKey.split(setup, SPLIT_DATABASE, t), `variant ${setup.name}: split`);
    run.log(
      `variant ${setup.name}: ${data.tables} tables split into ${setup.split.regions} regions each (rows and index k_<n>), scattered`
    );
  }
  if (data && run.plan.steps.some((x) => x.key === stepKey.regions(setup))) {
    try {
      const out = await plannedSql(run, r.sql, stepKey.regions(setup), `variant ${setup.name}: regions`);
      effective["split.regions"] = String(rowRegions(out));
      run.log(`variant ${setup.name}: sbtest1's rows are in ${effective["split.regions"]} region(s)`);
    } catch (e) {
      run.log(`variant ${setup.name}: regions not read back: ${e.message.split("\n")[0]}`);
    }
  }
  for (const table of load.tables)
    await plannedSql(
      run,
      r.sql,
      stepKey.analyze(setup, load.database, table),
      `variant ${setup.name}: analyze`
    );
  run.log(`variant ${setup.name}: ${load.tables.length} tables of ${load.database} analyzed`);
}

// action/src/targets/tidb/run.ts
var TidbRun = class {
  constructor(plan, runDir, rawDir, log, machines) {
    this.plan = plan;
    this.rawDir = rawDir;
    this.log = log;
    this.machines = machines;
    this.dir = join21(runDir, "tidb");
    this.unregister = onTeardown("destroy the TiDB clusters of this run", () => this.stop());
  }
  plan;
  rawDir;
  log;
  machines;
  running = /* @__PURE__ */ new Map();
  /** The plan's steps as they ran, <run>/tidb filled in (tiperf plan prints the same objects). */
  executed = [];
  unregister;
  dir;
  checks = new ClusterChecks(() => this.via());
  /** Where each variant's private server keeps its logs when it stops (the run's server/<variant>/). */
  logDirs = /* @__PURE__ */ new Map();
  /** When the run's deployments began: the start of the window monitoring keeps. */
  startedAt = /* @__PURE__ */ new Date();
  /**
   * The plan's step of this key, <run>/tidb filled in, recorded as executed: the run carries out
   * the steps `tiperf plan` prints and nothing of its own making.
   */
  planned(key) {
    const done = this.filled(key);
    this.executed.push(done);
    return done;
  }
  /**
   * The plan's step of this key with what the run has learned filled in (<run>/tidb, and a private
   * server's ports and directory once it started), not yet recorded.
   */
  filled(key) {
    return filledStep(stepOf(this.plan.steps, key), (t) => this.fill(t.replaceAll(PLAN_DIR, this.dir)));
  }
  /** Fills in what the plan left to the run (a private server's ports and work directory). */
  fills = [];
  addFill(fill) {
    this.fills.push(fill);
  }
  logDirOf(variant) {
    return this.logDirs.get(variant);
  }
  /** Text of the plan with what the run has learned filled in (a private server's ports and directory). */
  fill(text) {
    return this.fills.reduce((acc, f) => f(acc), text);
  }
  argv(key) {
    return this.planned(key).run.command;
  }
  /** What the created machines cost: the price table's $/h over the hours they lived (so far, while they live). */
  cost() {
    return this.machines?.cost();
  }
  /**
   * Behind a bastion (ssh.proxy: an ephemeral cluster, or hosts the runner reaches only by SSH),
   * tiperf's own SQL and HTTP checks run on the load host; else here.
   */
  via() {
    return this.plan.profile.ssh?.proxy ? this.loadHost() : void 0;
  }
  /** How the servers' status ports are reached from here (status-reads.ts). */
  reach() {
    return {
      fill: (t) => this.fill(t),
      getBytes: (url, limitS) => this.checks.getBytes(url, limitS),
      via: () => this.via()
    };
  }
  /** Writes the plan's files (topologies, TOML configs, haproxy.cfg) into <run>/tidb/. */
  async writeFiles() {
    await mkdir11(this.dir, { recursive: true });
    for (const [name, text] of Object.entries(this.plan.files)) await writeAtomic(join21(this.dir, name), text);
  }
  /** Where the deployment runs the load tools itself (a pod of the cluster), if it does. */
  loadLauncher() {
    for (const d of this.plan.deployments) {
      const l = formOf(d).loadInPlace?.launcher(this, d);
      if (l) return l;
    }
    return void 0;
  }
  /** The load host as ssh reaches it (hosts profiles), for the load tools; through the bastion if any. */
  loadHost() {
    return loadHostOf(this.plan, this.dir);
  }
  /** Runs a planned tiup command line; throws with tiup's last lines when it fails. */
  tiupRun(argv, what, signal, limitS = 1800) {
    return runTiup(argv, { rawDir: this.rawDir, what, signal, limitS });
  }
  /** The Target of one variant, starting its deployment on first use. */
  async target(variant, opts) {
    const setup = this.plan.variants.find((v) => v.name === variant);
    if (!setup) throw new RunError(`no TiDB variant ${variant} in this plan`);
    const d = this.plan.deployments[setup.deployment];
    const form = formOf(d);
    const run = form.run;
    const restarts = form.restarts;
    this.logDirs.set(variant, opts.logDir);
    const shared = this.running.has(d.index);
    const did = await activateVariant(this, setup, opts.signal);
    if (shared && did) this.log(`variant ${variant}: ${did}`);
    const r = this.running.get(d.index);
    r.users++;
    const facts = await recordFacts(this, setup, r);
    if (setup.version && facts.version !== setup.version)
      throw new RunError(
        `variant ${variant}: target.version is ${setup.version} but ${run.build(d) ?? "the server"} reports Release Version ${facts.version} (tidb_version()): declare the version the build reports, or leave target.version out with a binpath`
      );
    this.log(
      `target: TiDB ${facts.version} (${d.form} ${d.name}) for variant ${variant}; SQL at ${r.endpoints.map((e) => `${e.host}:${e.port}`).join(", ")}`
    );
    const config = settingsOf(setup);
    let stopped = false;
    const seen = { seen: r.restarts };
    return {
      owner: "tiperf",
      kind: run.targetKind,
      version: facts.version,
      connection: { protocol: "mysql", endpoints: r.endpoints, user: "root", password: "" },
      get pids() {
        return r.pids?.() ?? [];
      },
      state: () => run.state(d, r),
      // the plan's statements, recorded by the bench that looked them up
      createDatabase: async (_name, statements) => {
        for (const sql of statements) await this.sql(r.sql, sql, `variant ${variant}`);
      },
      settings: config,
      effectiveConfig: facts.effective,
      ...setup.resources ? { resources: resourcesText(setup.resources) } : {},
      get died() {
        return r.died;
      },
      stop: async () => {
        if (stopped) return;
        stopped = true;
        r.users--;
        if (r.users === 0) await r.stop();
      },
      activate: (signal, o) => activateVariant(this, setup, signal, o),
      cpuProfiles: (seconds, dir, prefix) => cpuProfiles(this.reach(), r, seconds, dir, prefix),
      costCounters: () => costCounters(this.reach(), r),
      serverHosts: run.onHosts ? () => run.onHosts?.hosts(this, d) ?? [] : { cannot: "runs no server on another host reached over ssh" },
      // a fresh instance of its servers, same data (compare.blocks); a playground cannot
      restart: "restart" in restarts ? (signal) => restarts.restart(this, d, setup, r, seen, signal) : { cannot: restarts.cannot },
      watch: () => run.watch(this, setup, d, r),
      sharedData: r,
      details: {
        deployment: `${d.form} ${d.name}`,
        // the build it ran (target.binpath, or target.source's build of a commit): what a diff shows
        ...run.build(d) ? { build: run.build(d) } : {},
        config,
        ...setup.topologyFile ? { topology: join21(this.dir, setup.topologyFile) } : {},
        tidb_version: facts.tidbVersion,
        status: facts.status,
        ...r.facts?.()
      },
      afterLoad: (load) => afterLoad(this, setup, r, load, facts.effective)
    };
  }
  sql(at2, query, what) {
    return this.checks.sql(at2, query, what);
  }
  /** Every config key the variant sets, read back from the components (planned URLs). */
  checkConfig(setup, r) {
    const bySql = formOf(r.deployment).configBySql ?? [];
    return this.checks.readBack(
      setup,
      r.status,
      (role, addr) => plannedUrl(this, stepKey.config(setup, role, addr)),
      (role) => bySql.includes(role) ? plannedSql(this, r.sql, stepKey.showConfig(setup, role), `variant ${setup.name}: ${role} config`) : void 0
    );
  }
  /** The variant whose config a shared cluster has applied (else this one). */
  appliedSetup(setup, r) {
    return this.plan.variants.find((v) => v.name === r.applied) ?? setup;
  }
  /** Destroys every cluster and stops every playground of the run, then the cloud machines. Safe to call twice. */
  async stop() {
    this.unregister();
    for (const r of [...this.running.values()].reverse()) {
      const d = r.deployment;
      await formOf(d).run.onHosts?.beforeStop(this, d, r);
      r.users = 0;
      await r.stop().catch((e) => this.log(`teardown: ${e.message}`));
    }
    this.running.clear();
    const machines = this.machines;
    if (machines && !machines.gone) {
      await machines.destroy().catch((e) => this.log(`teardown: ${e.message}`));
      const cost = this.cost();
      if (cost)
        this.log(
          `cloud: the machines lived ${(cost.hours * 60).toFixed(1)} min: $${cost.dollars.toFixed(2)} at $${cost.per_hour.toFixed(3)}/h (prices as of ${cost.prices_as_of})`
        );
    }
  }
};
async function activateVariant(run, setup, signal, o = {}) {
  const d = run.plan.deployments[setup.deployment];
  let r = run.running.get(d.index);
  let did;
  if (!r) {
    r = await formOf(d).run.start(run, d, setup, signal);
    run.running.set(d.index, r);
    did = `${d.form} ${d.name} started`;
  }
  did = await formOf(d).turns?.switchTo(run, d, setup, r, signal, o.fresh === true) ?? did;
  await applyTargetSql(run, setup, r);
  return did;
}

// action/src/targets/tidb/source.ts
import { createHash } from "node:crypto";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync as existsSync7,
  mkdirSync as mkdirSync2,
  openSync,
  readdirSync as readdirSync3,
  readFileSync as readFileSync6,
  realpathSync as realpathSync2,
  renameSync as renameSync2,
  rmSync,
  statSync as statSync3,
  utimesSync,
  writeFileSync as writeFileSync2
} from "node:fs";
import { homedir as homedir4 } from "node:os";
import { basename as basename7, isAbsolute as isAbsolute2, join as join22, resolve as resolve3 } from "node:path";

// action/src/targets/tidb/unseen.ts
var NEEDS = "a TiDB cluster profile (infra/profiles/playground.yaml, a hosts profile or a cloud profile: --profile)";
var AREAS = [
  {
    paths: /^pkg\/store\/mockstore\//,
    why: "unistore itself, the embedded store this check runs on: what moves here moves no TiKV cluster"
  },
  {
    paths: /^pkg\/store\/driver\//,
    why: "the TiKV driver (how tidb-server reaches TiKV and PD), which a unistore server does not load"
  },
  {
    paths: /^pkg\/store\/gcworker\//,
    why: "GC against PD's safe point and TiKV's GC, which unistore does not run"
  },
  {
    paths: /^pkg\/store\/copr\/(mpp|batch_coprocessor)[^/]*$|^pkg\/executor\/mpp|^pkg\/executor\/internal\/mpp\//,
    why: "TiFlash (MPP and batch coprocessor), absent on unistore"
  },
  {
    paths: /^pkg\/domain\/infosync\/|^pkg\/store\/helper\/|^pkg\/util\/pdapi\//,
    why: "tidb-server's registration with PD and etcd and its PD HTTP calls, which unistore replaces with local stand-ins"
  }
];
var CLIENT_MODULES = /^[-+](?:\s*require)?\s*(github\.com\/tikv\/client-go\/v2|github\.com\/tikv\/pd\/client)\s/;
function unseenOnUnistore(files, goModDiff = "") {
  const out = [];
  for (const area of AREAS) {
    const paths2 = files.filter((f) => area.paths.test(f));
    if (paths2.length) out.push({ why: area.why, paths: paths2, needs: NEEDS });
  }
  const modules = [
    ...new Set(
      goModDiff.split("\n").map((l) => CLIENT_MODULES.exec(l)?.[1]).filter((m) => m !== void 0)
    )
  ];
  if (modules.length)
    out.push({
      why: `a new ${modules.join(" and ")} (two-phase commit over the network, the region cache, batch RPC to TiKV, PD's timestamps), which on unistore runs only as far as the embedded store uses it`,
      paths: ["go.mod"],
      needs: NEEDS
    });
  return out;
}

// action/src/targets/tidb/source.ts
function buildsRoot(env = inherited()) {
  if (env.TIPERF_BUILDS) return resolve3(env.TIPERF_BUILDS);
  return join22(env.XDG_CACHE_HOME || join22(homedir4(), ".cache"), "tiperf", "builds");
}
function treeDir(path, root = buildsRoot()) {
  const real = realpathSync2(path);
  return join22(root, `${basename7(real)}-${createHash("sha256").update(real).digest("hex").slice(0, 10)}`);
}
function buildKey(commit, src) {
  const how = createHash("sha256").update(
    JSON.stringify([
      src.build,
      src.binary,
      Object.entries(src.env ?? {}).sort(),
      // a counting build is another binary of the same commit
      ...src.count ? [countOf(src)] : []
    ])
  ).digest("hex").slice(0, 8);
  return `${commit}-${how}`;
}
function countOf(src) {
  return typeof src.count === "object" ? src.count : { main: "cmd/tidb-server" };
}
function howBuilt(src) {
  const env = Object.entries(src.env ?? {}).map(([k, v]) => `${k}=${v} `);
  const count = src.count ? countOf(src) : void 0;
  const counting = count ? ` with GOFLAGS=${coverFlags(count.packages?.length ? count.packages : ["<module>/..."])} and ${COUNTING_FILE} in ${count.main} (a counting build; <module>: the tree's go.mod module)` : "";
  return `${env.join("")}${src.build.join(" ")}${counting}`;
}
async function gitStep(path, args, what) {
  const r = await git(path, args, 6e5);
  if (r.code !== 0) throw new RunError(`${what}: git ${args.join(" ")} failed: ${r.err}`);
}
async function resolveCommit(path, ref, key = "target.source.ref") {
  if (!existsSync7(path)) throw new InputError(`target.source.path: ${path} does not exist`);
  if ((await git(path, ["rev-parse", "--show-toplevel"])).code !== 0)
    throw new InputError(`target.source.path: ${path} is not a git repository`);
  const c = await commitAt(path, ref);
  if ("error" in c) throw new InputError(`${key}: ${ref} is not a commit of ${path} (${c.error})`);
  return c;
}
function buildEnv(src) {
  const out = {};
  for (const [k, v] of Object.entries(inherited()))
    if (v !== void 0 && /^(GO[A-Z0-9_]*|CGO_[A-Z_]+|CC|CXX)$/.test(k)) out[k] = v;
  return { ...out, ...src.env ?? {} };
}
function keptBuild(path, commit, src) {
  const file = join22(treeDir(path), buildKey(commit, src), "tidb-server");
  return existsSync7(file) ? file : void 0;
}
function sizeBytes(size) {
  const m = /^(\d+(?:\.\d+)?)([MG])$/.exec(size);
  if (!m) throw new InputError(`target.source.keep: must be a size like 10G or 800M (got ${size})`);
  return Number(m[1]) * (m[2] === "G" ? 2 ** 30 : 2 ** 20);
}
var inUse = /* @__PURE__ */ new Set();
function pruneBuilds(dir, cap) {
  if (!existsSync7(dir)) return [];
  const builds = readdirSync3(dir).map((name) => join22(dir, name)).filter((d) => existsSync7(join22(d, "build.json")) && existsSync7(join22(d, "tidb-server"))).map((d) => ({
    d,
    used: statSync3(join22(d, "build.json")).mtimeMs,
    bytes: readdirSync3(d).reduce((n, f) => n + statSync3(join22(d, f)).size, 0)
  })).sort((a, b) => a.used - b.used);
  let total = builds.reduce((n, b) => n + b.bytes, 0);
  const removed = [];
  for (const b of builds) {
    if (total <= cap) break;
    if (inUse.has(join22(b.d, "tidb-server"))) continue;
    rmSync(b.d, { recursive: true, force: true });
    total -= b.bytes;
    removed.push(b.d);
  }
  return removed;
}
function lock(dir) {
  const file = join22(dir, "lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeFileSync2(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      const holder = Number(readFileSync6(file, "utf8"));
      let alive4 = false;
      try {
        process.kill(holder, 0);
        alive4 = holder > 0;
      } catch {
      }
      if (alive4)
        throw new RunError(
          `${dir}: another tiperf (pid ${holder}) is building in this tree's checkout; wait for it`
        );
      rmSync(file, { force: true });
    }
  }
  throw new RunError(`${dir}: cannot take the build lock`);
}
async function runBuild(src, tree, what, logFile, opts) {
  const counting = src.count ? countingBuild(tree, countOf(src), buildEnv(src)) : void 0;
  if (counting) writeFileSync2(counting.file, COUNTING_GO);
  const [command, ...args] = src.build;
  opts.log(
    `build ${what}: ${src.build.join(" ")} (in ${tree})${counting ? `, counting: GOFLAGS=${counting.env.GOFLAGS} and ${COUNTING_FILE} in ${countOf(src).main}` : ""}`
  );
  const program = command.includes("/") && !isAbsolute2(command) ? join22(tree, command) : command;
  try {
    return await runTool(program, args, {
      logFile,
      limitS: parseDuration(src.timeout) ?? 3600,
      env: counting?.env ?? buildEnv(src),
      ...opts.signal ? { signal: opts.signal } : {},
      cwd: tree
    });
  } finally {
    if (counting) rmSync(counting.file, { force: true });
  }
}
async function buildAt(src, commit, opts) {
  const { subject } = await resolveCommit(src.path, commit);
  const dir = treeDir(src.path);
  const out = join22(dir, buildKey(commit, src));
  const binary = join22(out, "tidb-server");
  const logFile = join22(out, "build.log");
  if (existsSync7(binary)) {
    const info = JSON.parse(readFileSync6(join22(out, "build.json"), "utf8"));
    opts.log(`build ${commit.slice(0, 10)}: kept from an earlier build (${binary})`);
    inUse.add(binary);
    const now = /* @__PURE__ */ new Date();
    utimesSync(join22(out, "build.json"), now, now);
    return { commit, subject, binary, seconds: info.seconds, kept: true, log: logFile };
  }
  mkdirSync2(out, { recursive: true });
  const unlock = lock(dir);
  try {
    const tree = join22(dir, "checkout");
    if (!existsSync7(join22(tree, ".git"))) {
      rmSync(tree, { recursive: true, force: true });
      await gitStep(src.path, ["worktree", "prune"], "the build checkout");
      await gitStep(src.path, ["worktree", "add", "--detach", "--force", tree, commit], "the build checkout");
    } else {
      await gitStep(tree, ["checkout", "--detach", "--force", commit], "the build checkout");
      await gitStep(tree, ["clean", "-ffdq"], "the build checkout");
    }
    const run = await runBuild(src, tree, `${commit.slice(0, 10)} ${subject}`, logFile, opts);
    const tail = run.output.trim().split("\n").slice(-8).join("\n");
    if (run.aborted) throw new RunError(`build of ${commit.slice(0, 10)} stopped: ${run.aborted}`);
    if (run.timedOut)
      throw new RunError(
        `build of ${commit.slice(0, 10)} ran past target.source.timeout (${src.timeout}); its log: ${logFile}`
      );
    if (run.code !== 0)
      throw new BuildFailed(
        `build of ${commit.slice(0, 10)} (${subject}) failed: ${src.build.join(" ")} exited ${run.code ?? run.signal}; its log: ${logFile}
${tail}`,
        commit
      );
    const made = join22(tree, src.binary);
    if (!existsSync7(made))
      throw new BuildFailed(
        `build of ${commit.slice(0, 10)}: ${src.build.join(" ")} exited 0 but left no ${src.binary} (target.source.binary) in the checkout; its log: ${logFile}`,
        commit
      );
    copyFileSync(made, `${binary}.part`);
    chmodSync(`${binary}.part`, 493);
    const seconds = Math.round(run.elapsed_s * 10) / 10;
    writeFileSync2(
      join22(out, "build.json"),
      `${JSON.stringify({ commit, subject, seconds, build: src.build }, null, 2)}
`
    );
    renameSync2(`${binary}.part`, binary);
    inUse.add(binary);
    opts.log(`build ${commit.slice(0, 10)}: ${seconds} s`);
    const removed = pruneBuilds(dir, sizeBytes(src.keep ?? "10G"));
    if (removed.length)
      opts.log(
        `builds: ${removed.length} kept build(s) removed, least recently used first, to stay within target.source.keep (${src.keep ?? "10G"})`
      );
    return { commit, subject, binary, seconds, kept: false, log: logFile };
  } finally {
    unlock();
  }
}
var tidbSource = {
  program: "tidb-server",
  treeOf(target) {
    if (!isObj(target) || !isObj(target.source)) return void 0;
    const { path, ref } = target.source;
    return {
      path: typeof path === "string" ? path : "",
      ...typeof ref === "string" ? { ref } : {}
    };
  },
  defaults: { binary: "bin/tidb-server", timeout: "60m" },
  conflict(target) {
    if (!isObj(target.source)) return void 0;
    const binpath = target.binpath;
    return typeof binpath === "string" || isObj(binpath) && binpath.tidb ? "source and binpath both name the tidb-server to run: give one" : void 0;
  },
  resolve: (tree, ref, key) => resolveCommit(tree, ref, key),
  plannedBinary(source, commit) {
    const src = source;
    return keptBuild(src.path, commit, src) ?? `${treeDir(src.path)}/${buildKey(commit, src)}/tidb-server`;
  },
  howBuilt: (source) => howBuilt(source),
  build: (source, commit, o) => buildAt(source, commit, o),
  buildKey: (source, commit) => buildKey(commit, source),
  withBinary(target, binary) {
    const { source: _source, ...rest } = target;
    void _source;
    const binpath = isObj(rest.binpath) ? { ...rest.binpath, tidb: binary } : binary;
    return { ...rest, binpath, ...isObj(target.source) && target.source.count ? { counting: true } : {} };
  },
  async unseen(target, tree, base, head, profile) {
    const file = profile ?? (typeof target.profile === "string" ? target.profile : void 0);
    if (!file) return [];
    const { provider } = await loadProfile(file, profile ? "--profile" : "target.profile");
    if (deployerOf(provider).servers !== "embedded") return [];
    const changed = await git(tree, ["diff", "--name-only", base, head]);
    if (changed.code !== 0)
      throw new RunError(
        `target.source ${tree}: git diff ${base.slice(0, 10)} ${head.slice(0, 10)}: ${changed.err}`
      );
    const files = changed.out.split("\n").filter(Boolean);
    const goMod = files.includes("go.mod") ? (await git(tree, ["diff", base, head, "--", "go.mod"])).out : "";
    return unseenOnUnistore(files, goMod);
  }
};

// action/src/targets/tidb/index.ts
function countingCost(p) {
  if (p.deployments.every((d) => d.counting)) return {};
  const metrics = (tidb.costMetrics ?? []).filter((m) => m !== "go_stmts_per_op");
  return {
    cost: {
      metrics,
      source: "the servers' own counters",
      missing: {
        go_stmts_per_op: "it counts a counting build's statements: target.source.count, or target.counting for a private tidb-server's binpath built so"
      }
    }
  };
}
var DEFAULT_PROFILE = "infra/profiles/local.yaml";
async function planFor(input, made) {
  const variants = input.variants.map((v) => ({ name: v.name, target: v.target }));
  const named = new Set(variants.map((v) => v.target.profile ?? DEFAULT_PROFILE));
  if (!input.profile && named.size > 1)
    throw new InputError(
      `${input.file}: variants name different profiles (${[...named].join(", ")}); variants run on the same hardware, so they share one profile`
    );
  const file = input.profile ?? [...named][0];
  let profile = await loadProfile(file, input.profile ? "--profile" : "target.profile");
  checkTargets(input.file, variants, profile, file);
  const deployer = deployerOf(profile.provider);
  if (made) profile = made.onto(profile);
  else if (deployer.machines?.cloudOf(profile))
    profile = deployer.machines.placeholders?.(profile) ?? profile;
  const restarts = deployer.form?.restarts;
  if (input.blocks > 1 && restarts && "cannot" in restarts)
    throw new InputError(
      `${input.file}: compare.blocks is ${input.blocks}, but profile ${file} ${restarts.cannot}`
    );
  return planTidb({
    variants,
    profile,
    profileFile: file,
    prefix: input.prefix,
    ...input.data ? { data: input.data } : {},
    loads: input.loads
  });
}
function checkTargets(file, variants, profile, profileFile) {
  for (const v of variants) {
    const t = v.target;
    if (!t.version && !binpathsOf(t).tidb && !t.source)
      throw new InputError(
        `${file}: ${variantAt(variants.length, v.name)}target.version: a TiDB target names the version tiup deploys (like v8.5.0), or a build to run (target.binpath)`
      );
    const refused = deployerOf(profile.provider).checkTarget?.(t, profileFile);
    if (refused) throw new InputError(`${file}: ${variantAt(variants.length, v.name)}${refused}`);
  }
}
function switchingText(tidb2) {
  const d = tidb2.deployments[0];
  return (d ? formOf(d).turns?.switchingText(tidb2) : void 0) ?? tidb2.switching;
}
function connectionOf2(tidb2, variant) {
  const setup = tidb2.variants.find((v) => v.name === variant) ?? tidb2.variants[0];
  const d = tidb2.deployments[setup?.deployment ?? 0];
  return { protocol: "mysql", endpoints: d ? loadEndpoints(tidb2, d) : [], user: "root", password: "" };
}
var secondsOf = (r) => "seconds" in r ? r.seconds : 0;
function targetPlan(tidb2, input, provisioned = false) {
  const about = [];
  const place = deployerOf(tidb2.profile.provider).form?.loadInPlace?.place(tidb2.profile);
  const refusals = [];
  if (tidb2.grouped && input.variants.length > 1 && input.blocks < 3)
    refusals.push(
      `${input.file}: compare.blocks is ${input.blocks}, but variants on ${tidb2.profileFile} switch by restarting servers (${tidb2.switching}): each variant runs a block's cells as a group on a freshly switched instance, so set compare.blocks to 3 or more (with compare.rounds a multiple of it)${tidb2.switching === "reload" ? "; or make the variants differ only in items that change online, set in each of them" : ""}`
    );
  let setupS = tidb2.deployments.reduce((s, d) => s + formOf(d).deploySeconds, 0);
  const machines = deployerOf(tidb2.profile.provider).machines;
  const creates = machines?.cloudOf(tidb2.profile) ? machines.plan(tidb2.profile, {
    profileFile: tidb2.profileFile,
    matrixSeconds: input.matrixSeconds,
    ...input.runId ? { runId: input.runId } : {},
    ...provisioned ? { provisioned } : {}
  }) : void 0;
  if (creates) {
    about.push(creates.about);
    refusals.push(...creates.refusals);
    setupS += creates.seconds;
  }
  about.push(
    `profile ${tidb2.profileFile} (${tidb2.profile.name}, provider ${tidb2.profile.provider})`,
    `deployments: ${tidb2.deployments.map((d) => `${d.form} ${d.name} (TiDB ${d.version}; variants ${d.variants.join(", ")})`).join("; ")}`,
    `variants take turns by: ${switchingText(tidb2)}`,
    `load tools run on: ${place ? place.about : tidb2.load.user ? `${tidb2.load.user}@${tidb2.load.host} over SSH` : "this machine"}`
  );
  return {
    kind: "tidb",
    profile: tidb2.profile.name,
    variants: input.variants,
    about,
    files: tidb2.files,
    steps: tidb2.steps,
    connection: (variant) => connectionOf2(tidb2, variant),
    dataOf: (variant) => {
      const setup = tidb2.variants.find((v) => v.name === variant);
      return tidb2.deployments[setup?.deployment ?? 0]?.name ?? variant;
    },
    remoteLoad: Boolean(tidb2.load.user) || place !== void 0,
    ownership: "owned",
    ...place ? { loadWhere: place.where, loadCores: place.cores } : {},
    localServers: deployerOf(tidb2.profile.provider).servers === "embedded",
    ...deployerOf(tidb2.profile.provider).servers === "operator" ? { remoteDeploy: true } : {},
    overhead: {
      setupS,
      switchS: tidb2.deployments[0] ? formOf(tidb2.deployments[0]).turns?.switchSeconds(tidb2) ?? 0 : 0,
      // a measured restart time of this profile replaces these (bench/timings.ts)
      restartS: Math.max(0, ...tidb2.deployments.map((d) => secondsOf(formOf(d).restarts))),
      // variants sharing one deployment (online switching) restart it once per block
      restartsPerBlock: tidb2.deployments.length
    },
    ...countingCost(tidb2),
    switching: tidb2.grouped ? "grouped" : tidb2.switching === "online" ? "per-cell" : "none",
    takesTurnsBy: switchingText(tidb2),
    warnings: deprecationWarnings(tidb2.variants),
    refusals,
    tidb: tidb2,
    input,
    // the plan again on a cloud's machines is carried out already: its deployment made it
    open: provisioned ? () => Promise.reject(new Error("this plan was made on machines a run already provisioned")) : (o) => openTidb(tidb2, input, o)
  };
}
async function openTidb(first, input, o) {
  let tidbPlan = first;
  const maker = deployerOf(first.profile.provider).machines;
  let made;
  if (maker?.cloudOf(first.profile)) {
    made = await maker.create(first.profile, {
      runId: o.runId,
      prefix: input.prefix,
      runDir: o.runDir,
      forget: first.deployments.flatMap((d) => formOf(d).records?.(d) ?? []),
      ...o.shard ? { shard: o.shard } : {},
      log: o.log,
      signal: o.signal
    });
    try {
      tidbPlan = await planFor(input, made);
    } catch (e) {
      await made.destroy().catch((err) => o.log(`teardown: ${err.message}`));
      throw e;
    }
  }
  const run = new TidbRun(tidbPlan, o.runDir, o.rawDir, o.log, made);
  try {
    await run.writeFiles();
  } catch (e) {
    await run.stop();
    throw e;
  }
  return {
    executed: run.executed,
    target: (variant, opts) => run.target(variant, opts),
    loadHost: () => run.loadHost(),
    loadLauncher: () => run.loadLauncher(),
    stop: () => run.stop(),
    cost: () => run.cost(),
    // on created machines, the plan made on them is the one that runs
    ...made ? { plan: targetPlan(tidbPlan, input, true) } : {}
  };
}
var tidb = {
  name: "tidb",
  source: tidbSource,
  schema: TidbTargetSchema,
  keyNames: Object.keys(TidbTargetSchema.shape),
  // versions and builds recorded (tidb_version(), the build's commit); configs read back (SHOW
  // CONFIG, /config); SET GLOBAL read back; split regions counted on every variant (SHOW TABLE …
  // REGIONS); a private server's quota by its throttling; an endpoint recorded. Not read back (the
  // verdict says so): instance counts, NUMA, memory limits, cpus
  shown: [
    "version",
    "binpath",
    "source",
    "server_configs",
    "roles.*.config",
    "sql",
    "split",
    "resources.cpu_quota",
    "profile"
  ],
  needs: (target, o) => [
    // a build of one's own (target.binpath) runs without tiup on a local profile; an endpoint needs none
    ...o.borrowed || o.remoteDeploy || binpathsOf(target).tidb ? [] : [
      {
        found: anyTool(["tiup"]),
        what: "tiup (target.kind tidb)",
        install: "tiup (tiup.io), with its playground and cluster components; or a build as target.binpath"
      }
    ],
    {
      found: anyTool(MYSQL_CLIENTS),
      what: "the mariadb client (tiperf's SQL to TiDB)",
      install: "the Debian package mariadb-client"
    }
  ],
  async cloudOf(targets, profile) {
    const file = profile ?? targets[0]?.profile ?? DEFAULT_PROFILE;
    const p = await loadProfile(file, profile ? "--profile" : "target.profile");
    return deployerOf(p.provider).machines?.cloudOf(p);
  },
  async plan(input) {
    const profiles = await tidbVariantProfiles(input, DEFAULT_PROFILE);
    if (deployerOf(providerOf(input, profiles, "TiDB")).servers !== "borrowed")
      return targetPlan(await planFor(input), input);
    const { variants, refusals } = tidbEndpointVariants(input, profiles);
    return planEndpoints(TIDB_ENDPOINT, input, variants, refusals);
  },
  // read when \`tiperf reap\` runs: every registered form's, and the endpoint's
  get reapers() {
    return { ...formReapers(), ...ENDPOINT_REAPERS };
  },
  costMetrics: [
    "cpu_ms_per_op",
    "alloc_kb_per_op",
    "mallocs_per_op",
    "gc_per_kop",
    "tidb_cpu_ms_per_op",
    "tikv_cpu_ms_per_op",
    "pd_cpu_ms_per_op",
    "statements_per_op",
    "cop_requests_per_op",
    "plan_cache_misses_per_op",
    "tiny_allocs_per_op",
    "sched_events_per_op",
    "go_stmts_per_op"
  ]
};

// action/src/targets/registry.ts
var TARGET_KINDS = {
  mariadb,
  postgres,
  tidb
};
var kindNames = () => Object.keys(TARGET_KINDS);
function kindOf(name) {
  const k = TARGET_KINDS[name];
  if (!k) throw new InputError(`unknown target kind "${name}" (known: ${kindNames().join(", ")})`);
  return k;
}
var targetReapers = () => Object.assign({}, ...Object.values(TARGET_KINDS).map((k) => k.reapers));
var TargetSchema = external_exports.looseObject({ kind: external_exports.unknown() }).transform((t, ctx) => {
  const kind = typeof t.kind === "string" ? TARGET_KINDS[t.kind] : void 0;
  if (!kind) {
    ctx.addIssue({ code: "custom", path: ["kind"], message: `must be one of ${kindNames().join(", ")}` });
    return external_exports.NEVER;
  }
  let foreign = false;
  for (const key of Object.keys(t)) {
    if (kind.keyNames.includes(key)) continue;
    const takers = Object.values(TARGET_KINDS).filter((k) => k.keyNames.includes(key));
    ctx.addIssue({
      code: "custom",
      path: [key],
      message: takers.length ? `${key} is for kind ${takers.map((k) => k.name).join(", ")}, not ${kind.name} (kind ${kind.name} takes ${kind.keyNames.join(", ")})` : `unknown key ${key}${closest(key, kind.keyNames) ? ` (did you mean ${closest(key, kind.keyNames)}?)` : ""} (kind ${kind.name} takes ${kind.keyNames.join(", ")})`
    });
    foreign = true;
  }
  if (foreign) return external_exports.NEVER;
  const parsed = kind.schema.safeParse(t);
  if (!parsed.success) {
    forwardIssues(ctx, parsed.error.issues);
    return external_exports.NEVER;
  }
  return parsed.data;
});

export {
  writeAtomic,
  maskSecrets,
  maskArgs,
  require_dist,
  cpuIndexes,
  checkCpus,
  clockTicks,
  sampleProcess,
  cpuLine,
  machineTicks,
  threadTimes,
  allowedCpus,
  cpuLimit,
  isServerCounter,
  sameSeries,
  parseSelector,
  selects,
  isTime,
  counterGroup,
  PER_OP,
  COUNTERS_TIMEOUT_MS,
  IDLE_WINDOW_S,
  CODE_IDLE_WINDOW_S,
  idleWindowOf,
  costMetric,
  netCost,
  costOf,
  idleRates,
  closest,
  formatIssues,
  parseYaml,
  validateYaml,
  isObj,
  deepMerge,
  RESULT_FORMAT,
  RESULT_VERSION,
  ResourceUseSchema,
  HostSchema,
  TargetInfoSchema,
  CostSchema,
  newRunId,
  checkOutFile,
  RunDir,
  writeResult,
  migrated,
  readModel,
  resultFileOf,
  readResult,
  readReport,
  runTool,
  parsePercent,
  cpuList,
  cpuQuota,
  PORT_AT_START,
  PORT_TEXT,
  PASSWORD_AT_START,
  stepOf,
  filledStep,
  stepLine,
  tableNamesSql,
  createDatabaseSql,
  able,
  applyResources,
  cpuThrottle,
  throttleBetween,
  MANAGED_BY,
  MANAGER,
  EXPIRES,
  KubeClient,
  loadKubeContext,
  Profile,
  git,
  commitAt,
  TARGET_KINDS,
  kindOf,
  targetReapers,
  TargetSchema
};
