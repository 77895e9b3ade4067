/**
 * The seccomp filter every bubblewrap-sandboxed command runs under (bwrap `--seccomp FD` loads it
 * just before it executes the command, after its own setup). It closes what mounts and dropped
 * capabilities leave open:
 *  - `socket(AF_UNIX, …)`: a file-system socket is reachable through a read-only mount (connect()
 *    needs no write access to the file system), and one daemon socket (Docker, containerd, a
 *    desktop session bus) is a way out. seccomp cannot read the path connect() is given, so no
 *    Unix socket can be created at all; `socketpair()` (pipes between processes) still works.
 *    `sandbox.allowUnixSockets` in the user's config leaves the filter out of this one rule.
 *  - io_uring: its rings can create and connect sockets without the socket() system call;
 *  - new user namespaces (`clone`/`unshare` with CLONE_NEWUSER; `clone3`, whose flags seccomp
 *    cannot read, answers ENOSYS so libc falls back to `clone`): a fresh namespace grants every
 *    capability again inside it;
 *  - mount and the new mount API, keyrings (the user's keys are shared with every process of the
 *    user), `TIOCSTI`/`TIOCLINUX` (typing into a terminal), and every 32-bit or x32 system call
 *    (another table of numbers the rules above would not cover).
 * Everything else is allowed. Blocked calls fail with EPERM, so programs see an ordinary error.
 *
 * The program is classic BPF, built here (no native code): `struct sock_filter` records of 8
 * bytes, host byte order, laid out as the kernel reads them.
 */

/** One machine's numbers for the calls the filter inspects. */
interface SyscallTable {
  /** AUDIT_ARCH_* of the native ABI: anything else is refused. */
  arch: number;
  socket: number;
  clone: number;
  unshare: number;
  ioctl: number;
  /** Refused outright. */
  blocked: number[];
  /** Refused with ENOSYS so callers fall back (clone3 -> clone). */
  unsupported: number[];
  /** x86_64 marks x32 system calls with this bit; they are refused. */
  x32Bit?: number;
}

// The new mount API, io_uring and clone3 share numbers across 64-bit architectures.
const IO_URING = [425, 426, 427];
const NEW_MOUNT_API = [428, 429, 430, 431, 432, 433, 442]; // open_tree … fspick, mount_setattr
const CLONE3 = 435;

const TABLES: Partial<Record<string, SyscallTable>> = {
  x64: {
    arch: 0xc000003e,
    socket: 41,
    clone: 56,
    unshare: 272,
    ioctl: 16,
    // mount, umount2, pivot_root, add_key, request_key, keyctl
    blocked: [165, 166, 155, 248, 249, 250, ...IO_URING, ...NEW_MOUNT_API],
    unsupported: [CLONE3],
    x32Bit: 0x40000000,
  },
  arm64: {
    arch: 0xc00000b7,
    socket: 198,
    clone: 220,
    unshare: 97,
    ioctl: 29,
    // mount, umount2, pivot_root, add_key, request_key, keyctl
    blocked: [40, 39, 41, 217, 218, 219, ...IO_URING, ...NEW_MOUNT_API],
    unsupported: [CLONE3],
  },
};

const AF_UNIX = 1;
const CLONE_NEWUSER = 0x10000000;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const EPERM = 1;
const ENOSYS = 38;

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;

// struct seccomp_data: nr at 0, arch at 4, instruction pointer at 8, args[i] at 16 + 8i (the low
// 32 bits first on the little-endian machines above).
const NR = 0;
const ARCH = 4;
const argLow = (i: number): number => 16 + 8 * i;

// Classic BPF opcodes.
const LD_W_ABS = 0x20;
const JEQ = 0x15;
const JGE = 0x35;
const JSET = 0x45;
const RET = 0x06;

type Label = 'allow' | 'eperm' | 'enosys' | 'socket' | 'namespace' | 'ioctl';
type Target = Label | 'next';
/** One instruction; `label` names it as a jump target. */
type Instruction = { k: number; label?: Label } & (
  | { op: typeof LD_W_ABS | typeof RET }
  | { op: typeof JEQ | typeof JGE | typeof JSET; yes: Target; no: Target }
);

/** Whether this machine's architecture has a filter (x86_64 and arm64 do). */
export function seccompSupported(arch: string = process.arch): boolean {
  return TABLES[arch] !== undefined;
}

export interface SeccompOptions {
  /** Leave Unix sockets alone (`sandbox.allowUnixSockets`). */
  allowUnixSockets?: boolean;
  arch?: string;
}

/** The compiled filter for `arch` (default: this process's), ready for bwrap's `--seccomp`. */
export function seccompProgram(options: SeccompOptions = {}): Buffer {
  const table = TABLES[options.arch ?? process.arch];
  if (!table) throw new Error(`seek has no seccomp filter for the ${options.arch ?? process.arch} architecture`);
  return assemble(instructions(table, options.allowUnixSockets === true));
}

function instructions(table: SyscallTable, allowUnixSockets: boolean): Instruction[] {
  const jumpIf = (k: number, yes: Target): Instruction => ({ op: JEQ, k, yes, no: 'next' });
  const program: Instruction[] = [
    { op: LD_W_ABS, k: ARCH },
    { op: JEQ, k: table.arch, yes: 'next', no: 'eperm' },
    { op: LD_W_ABS, k: NR },
  ];
  if (table.x32Bit !== undefined) program.push({ op: JGE, k: table.x32Bit, yes: 'eperm', no: 'next' });
  for (const nr of table.blocked) program.push(jumpIf(nr, 'eperm'));
  for (const nr of table.unsupported) program.push(jumpIf(nr, 'enosys'));
  if (!allowUnixSockets) program.push(jumpIf(table.socket, 'socket'));
  program.push(jumpIf(table.clone, 'namespace'), jumpIf(table.unshare, 'namespace'), jumpIf(table.ioctl, 'ioctl'));
  // Jumps only go forward: the argument checks come after the plain allow, the returns they
  // jump to last.
  program.push(
    { op: RET, k: RET_ALLOW },
    { op: LD_W_ABS, k: argLow(0), label: 'socket' },
    { op: JEQ, k: AF_UNIX, yes: 'eperm', no: 'allow' },
    { op: LD_W_ABS, k: argLow(0), label: 'namespace' },
    { op: JSET, k: CLONE_NEWUSER, yes: 'eperm', no: 'allow' },
    { op: LD_W_ABS, k: argLow(1), label: 'ioctl' },
    { op: JEQ, k: TIOCSTI, yes: 'eperm', no: 'next' },
    { op: JEQ, k: TIOCLINUX, yes: 'eperm', no: 'allow' },
    { op: RET, k: RET_ALLOW, label: 'allow' },
    { op: RET, k: RET_ERRNO | EPERM, label: 'eperm' },
    { op: RET, k: RET_ERRNO | ENOSYS, label: 'enosys' },
  );
  return program;
}

/** Resolves labels into the relative jumps classic BPF takes (forward only, at most 255). */
function assemble(program: Instruction[]): Buffer {
  const at: Partial<Record<Label, number>> = {};
  program.forEach((instruction, index) => {
    if (instruction.label) at[instruction.label] = index;
  });
  const offset = (from: number, target: Target): number => {
    if (target === 'next') return 0;
    const to = at[target];
    if (to === undefined || to <= from || to - from - 1 > 255) throw new Error(`seccomp: bad jump to ${target}`);
    return to - from - 1;
  };
  const out = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    const base = index * 8;
    out.writeUInt16LE(instruction.op, base);
    if ('yes' in instruction) {
      out.writeUInt8(offset(index, instruction.yes), base + 2);
      out.writeUInt8(offset(index, instruction.no), base + 3);
    }
    out.writeUInt32LE(instruction.k >>> 0, base + 4);
  });
  return out;
}
