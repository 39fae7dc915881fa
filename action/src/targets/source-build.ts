// What a target kind needs to build its server from source: the tree a commit is checked out into,
// the build it yields, what a spec's change to it leaves unseen, and the builder that makes one.

/** A source tree a target names (its kind's `source:` key): where it is and the ref to build. */
export interface SourceTree {
  path: string;
  ref?: string;
}

/** One commit's build: its binary, what it cost, whether it was found kept. */
export interface SourceBuild {
  commit: string;
  subject: string;
  binary: string;
  seconds: number;
  kept: boolean;
}

/** A part of a source change a target cannot judge (code its deployment never runs), and the paths that show it. */
export interface Unseen {
  why: string;
  paths: string[];
  /** What can judge it instead (a deployment, a profile). */
  needs: string;
}

/**
 * A kind whose targets can be built from a source tree (Rally's supplier stage): the pipeline asks
 * it, never a kind's name, whether a target builds, what commit a ref is, where a commit's binary
 * is (kept or to be built) and how a built binary takes the place of the source in the target.
 */
export interface SourceBuilder {
  /** The program a build makes, as texts name it (tidb-server). */
  program: string;
  /** The tree a target (raw, as written, or validated) names, if it builds from one. */
  treeOf(target: unknown): SourceTree | undefined;
  /** Defaults a variant's source takes when the spec's target names no source of its own. */
  defaults: Record<string, unknown>;
  /** Why a raw target cannot be built (it also names the binary the build would make), if so. */
  conflict(target: Record<string, unknown>): string | undefined;
  /** A ref of the tree as a commit and its subject; a bad ref names `key`. */
  resolve(tree: string, ref: string, key: string): Promise<{ commit: string; subject: string }>;
  /** Where a commit's binary is or will be (kept, or the path a build would write): plans only. */
  plannedBinary(source: Record<string, unknown>, commit: string): string;
  /** How a commit is built, as the plan says it (its command, environment, flags). */
  howBuilt(source: Record<string, unknown>): string;
  /** The commit's binary: kept, or built now. */
  build(
    source: Record<string, unknown>,
    commit: string,
    o: { log: (line: string) => void; signal?: AbortSignal },
  ): Promise<SourceBuild>;
  /** A key that tells builds apart (commit and how it is made): one build per key. */
  buildKey(source: Record<string, unknown>, commit: string): string;
  /** The raw target with the built binary in place of its source. */
  withBinary(target: Record<string, unknown>, binary: string): Record<string, unknown>;
  /**
   * What of the change from `base` to `head` of the tree this target (raw; `profile`: a --profile
   * over its own) cannot judge where it is deployed, if anything.
   */
  unseen?(
    target: Record<string, unknown>,
    tree: string,
    base: string,
    head: string,
    profile?: string,
  ): Promise<Unseen[]>;
}
