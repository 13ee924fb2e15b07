/**
 * A Dockerfile's stages performed without a container runtime, for the container test: each stage
 * gets a folder standing in for its file system, and its instructions are carried out there.
 * The instructions it knows are the ones the Dockerfile uses; any other stops the build, so the
 * Dockerfile cannot grow a step this does not perform.
 *
 * What stands in for what: a base image (`FROM node:26-slim`) is an empty folder, and its Node is
 * this test's; a full `npm ci` (dev dependencies included, the build stage's) is a link to this
 * checkout's node_modules, installed from the same lockfile; `npm cache clean` is skipped (it
 * would clear this machine's cache, not the image's); `chown` is not performed (the test runs as
 * itself). Everything else runs: COPY (with .dockerignore), WORKDIR, `npm ci --omit=dev`,
 * `npm uninstall`, `npm run build`, `mkdir`.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, isAbsolute, join, matchesGlob, relative } from 'node:path';

interface Instruction {
  keyword: string;
  args: string;
}

interface StageSource {
  name: string;
  from: string;
  instructions: Instruction[];
}

/** A stage as built: its folder and the image settings it ends with. */
export interface Stage {
  name: string;
  /** The base image, for a stage not built on another. */
  image: string;
  root: string;
  workdir: string;
  env: Record<string, string>;
  user?: string;
  cmd?: string[];
  healthcheck?: string[];
  volumes: string[];
  /** Every RUN command, as written. */
  runs: string[];
}

/** The Dockerfile's instructions, continuation lines joined and comments dropped, by stage. */
export function stagesOf(dockerfile: string): StageSource[] {
  const stages: StageSource[] = [];
  const logical = dockerfile
    .replace(/\\\n(\s*#.*\n)*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  for (const line of logical) {
    const [, keyword, args] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (!keyword) throw new Error(`Dockerfile line not understood: ${line}`);
    if (keyword === 'FROM') {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args!) ?? [];
      stages.push({ name: name ?? `stage-${stages.length}`, from: from!, instructions: [] });
    } else {
      stages.at(-1)!.instructions.push({ keyword: keyword.toUpperCase(), args: args!.trim() });
    }
  }
  return stages;
}

export interface BuildOptions {
  /** The build context (this checkout). */
  context: string;
  /** Where the stages' folders go. */
  work: string;
  /** Runs npm with these arguments in a folder; throws on failure. */
  npm: (args: string[], cwd: string) => void;
}

export class DockerfileBuild {
  readonly stages: StageSource[];
  private readonly built = new Map<string, Stage>();
  private readonly ignored: string[];

  constructor(
    dockerfile: string,
    private readonly options: BuildOptions,
  ) {
    this.stages = stagesOf(dockerfile);
    const ignore = join(options.context, '.dockerignore');
    this.ignored = existsSync(ignore)
      ? readFileSync(ignore, 'utf8')
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l && !l.startsWith('#'))
      : [];
  }

  /** The default target: the last stage. */
  get defaultTarget(): string {
    return this.stages.at(-1)!.name;
  }

  /** Builds `name` and the stages it needs, each once. */
  build(name: string): Stage {
    const done = this.built.get(name);
    if (done) return done;
    const source = this.stages.find((s) => s.name === name);
    if (!source) throw new Error(`no stage ${name} in the Dockerfile`);
    const root = join(this.options.work, name);
    const parent = this.stages.some((s) => s.name === source.from) ? this.build(source.from) : undefined;
    mkdirSync(root, { recursive: true });
    if (parent) cpSync(parent.root, root, { recursive: true, verbatimSymlinks: true });
    const stage: Stage = parent
      ? { ...parent, name, root, env: { ...parent.env }, volumes: [...parent.volumes], runs: [...parent.runs] }
      : { name, image: source.from, root, workdir: '/', env: {}, volumes: [], runs: [] };
    for (const instruction of source.instructions) this.perform(stage, instruction);
    this.built.set(name, stage);
    return stage;
  }

  private perform(stage: Stage, { keyword, args }: Instruction): void {
    switch (keyword) {
      case 'WORKDIR':
        stage.workdir = isAbsolute(args) ? args : join(stage.workdir, args);
        mkdirSync(inStage(stage, stage.workdir), { recursive: true });
        return;
      case 'COPY':
        this.copy(stage, args);
        return;
      case 'RUN':
        stage.runs.push(args);
        for (const command of args.split('&&').map((c) => c.trim())) this.run(stage, command);
        return;
      case 'ENV':
        for (const [, key, value] of args.matchAll(/(\w+)=(\S+)/g)) stage.env[key!] = value!;
        return;
      case 'USER':
        stage.user = args;
        return;
      case 'CMD':
        stage.cmd = JSON.parse(args) as string[];
        return;
      case 'HEALTHCHECK':
        stage.healthcheck = JSON.parse(/CMD\s+(\[.*\])$/.exec(args)![1]!) as string[];
        return;
      case 'VOLUME':
        stage.volumes.push(...(JSON.parse(args) as string[]));
        return;
      case 'EXPOSE':
      case 'STOPSIGNAL':
        return;
      default:
        throw new Error(`Dockerfile instruction ${keyword} is not performed by test/support/dockerfile-steps.ts`);
    }
  }

  private copy(stage: Stage, args: string): void {
    const words = args.split(/\s+/);
    const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
    const [dest, ...sources] = words.filter((w) => !w.startsWith('--')).reverse();
    const fromRoot = from ? this.build(from).root : undefined;
    const target = inStage(stage, isAbsolute(dest!) ? dest! : join(stage.workdir, dest!));
    const intoFolder = dest!.endsWith('/') || sources.length > 1;
    for (const source of sources.reverse()) {
      const path = fromRoot ? join(fromRoot, source) : join(this.options.context, source);
      if (!fromRoot && this.isIgnored(source)) throw new Error(`COPY ${source}: excluded by .dockerignore`);
      if (!existsSync(path)) throw new Error(`COPY ${source}: not found${from ? ` in stage ${from}` : ' in the context'}`);
      const folder = lstatSync(path).isDirectory();
      cpSync(path, intoFolder && !folder ? join(target, basename(source)) : target, {
        recursive: true,
        verbatimSymlinks: true,
        filter: (file) => fromRoot !== undefined || !this.isIgnored(relative(this.options.context, file)),
      });
    }
  }

  private isIgnored(path: string): boolean {
    return this.ignored.some((pattern) => {
      const p = pattern.replace(/^\//, '');
      return matchesGlob(path, p) || matchesGlob(path, `${p}/**`);
    });
  }

  private run(stage: Stage, command: string): void {
    if (/["'`$;|<>]/.test(command)) throw new Error(`RUN ${command}: quoting and shell syntax are not performed here`);
    const [program, ...args] = command.split(/\s+/);
    const cwd = inStage(stage, stage.workdir);
    if (program === 'mkdir' && args[0] === '-p') {
      for (const folder of args.slice(1))
        mkdirSync(inStage(stage, isAbsolute(folder) ? folder : join(stage.workdir, folder)), { recursive: true });
    } else if (program === 'chown') {
      // not performed: the test runs as itself
    } else if (program === 'npm' && args[0] === 'cache' && args[1] === 'clean') {
      // not performed: it would clear this machine's npm cache; the image drops its own
    } else if (program === 'npm' && args[0] === 'ci' && !args.includes('--omit=dev')) {
      symlinkSync(join(this.options.context, 'node_modules'), join(cwd, 'node_modules'));
    } else if (program === 'npm') {
      const offline = args[0] === 'ci' || args[0] === 'uninstall' ? ['--prefer-offline'] : [];
      this.options.npm([...args, ...offline], cwd);
    } else {
      throw new Error(`RUN ${command}: not performed by test/support/dockerfile-steps.ts`);
    }
  }
}

/** A path of the image, in the stage's folder. */
export function inStage(stage: Stage, path: string): string {
  return join(stage.root, path);
}

/** Bytes under a folder, links not followed (as the image's layer holds them). */
export function sizeOf(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}
