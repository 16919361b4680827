/* The runner pool of byoc measure: up to `jobs` children at once, each
 * timing one kernel (cli/runner.h; doc/cost-table.md, "Measuring with
 * byoc measure").
 *
 * One idea: every child is spawned in a process group of its own, so that
 * the group is the unit of killing.  A child that exits takes whatever it
 * left behind with it (the group is killed before the child is reaped,
 * while its pid cannot be reused); a timeout, a fatal error or Ctrl-C
 * sends the group SIGTERM, then SIGKILL after a grace period.  A terminal's
 * Ctrl-C reaches only byoc's own group, and byoc decides.
 *
 * The loop is one poll() over every child's stdout and stderr and a
 * self-pipe written by the signal handlers (SIGCHLD, SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT).
 * Output is read as lines of bounded length and never stored whole: a
 * child's result is its last "seconds: X" line (or trtexec's median, or
 * the worker's reply), and its message the last non-empty line it wrote. */
#define _POSIX_C_SOURCE 200809L
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define LINE_MAX_LEN 4096     /* longer lines are cut there */
#define MESSAGE_MAX 300       /* a failure's quoted line, at most */
#define WORKER_START_LIMIT 60.0   /* seconds for node to load onnxruntime-node */

/* ---- runner specifications ------------------------------------------------ */

static const struct {
    const char *node;     /* onnxruntime-node's name */
    const char *full;     /* ONNX Runtime's */
} ep_names[] = {
    {"cpu", "CPUExecutionProvider"},         {"cuda", "CUDAExecutionProvider"},
    {"tensorrt", "TensorrtExecutionProvider"}, {"dnnl", "DnnlExecutionProvider"},
    {"openvino", "OpenVINOExecutionProvider"}, {"dml", "DmlExecutionProvider"},
    {"coreml", "CoreMLExecutionProvider"},   {"qnn", "QNNExecutionProvider"},
    {"webgpu", "WebGpuExecutionProvider"},   {"xnnpack", "XnnpackExecutionProvider"},
    {"rocm", "ROCMExecutionProvider"},       {"migraphx", "MIGraphXExecutionProvider"},
    {"nnapi", "NnapiExecutionProvider"},
};
#define NEP (sizeof ep_names / sizeof *ep_names)

static bool same_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

const char *runner_ep_full_name(const char *ep)
{
    if (same_nocase(ep, "trt"))
        ep = "tensorrt";
    else if (same_nocase(ep, "onednn"))
        ep = "dnnl";
    for (size_t i = 0; i < NEP; i++)
        if (same_nocase(ep, ep_names[i].node) || same_nocase(ep, ep_names[i].full))
            return ep_names[i].full;
    return ep;
}

/* The name onnxruntime-node knows a provider by (cpu, dnnl, ...): the
 * short form of a full name, else the name as it is. */
static const char *ep_node_name(const char *ep)
{
    const char *full = runner_ep_full_name(ep);
    for (size_t i = 0; i < NEP; i++)
        if (!strcmp(full, ep_names[i].full))
            return ep_names[i].node;
    return ep;
}

static char *str_cat(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    char *s = malloc(n + m + 1);
    if (s) {
        memcpy(s, a, n);
        memcpy(s + n, b, m + 1);
    }
    return s;
}

int runner_spec_parse(runner_spec *r, const char *text, char *why, size_t size)
{
    memset(r, 0, sizeof *r);
    const char *p;
    if (!strcmp(text, "onnxruntime") || !strncmp(text, "onnxruntime:", 12)) {
        r->kind = RUNNER_ORT;
        p = text[11] ? text + 12 : "cpu";
        if (!*p || strpbrk(p, " \t\n,\"'")) {
            snprintf(why, size, "--runner onnxruntime:EP needs an execution provider's name "
                                "(cpu, cuda, dnnl, tensorrt, a full name such as "
                                "CUDAExecutionProvider, or target), not '%s'", p);
            return -1;
        }
        if (!strcmp(p, "target")) {
            r->ep_of_target = true;
            r->name = strdup("onnxruntime:target");
        } else {
            r->ep = strdup(runner_ep_full_name(p));
            r->name = r->ep ? str_cat("onnxruntime:", r->ep) : NULL;
        }
    } else if (!strcmp(text, "trtexec") || !strncmp(text, "trtexec:", 8)) {
        r->kind = RUNNER_TRTEXEC;
        r->name = strdup(text);
        if (text[7] && text[8])
            r->command = strdup(text + 8);
    } else if (!strncmp(text, "time:", 5)) {
        r->kind = RUNNER_TIME;
        if (!text[5] || strspn(text + 5, " \t") == strlen(text + 5)) {
            snprintf(why, size, "--runner time:CMD needs a command after 'time:'");
            return -1;
        }
        r->command = strdup(text + 5);
        r->name = strdup(text);
    } else {
        r->kind = RUNNER_COMMAND;
        if (strspn(text, " \t") == strlen(text)) {
            snprintf(why, size, "--runner needs onnxruntime[:EP], trtexec[:ARGS], time:CMD "
                                "or a command line");
            return -1;
        }
        r->command = strdup(text);
        r->name = strdup(text);
    }
    if (!r->name || (r->kind != RUNNER_ORT && r->kind != RUNNER_TRTEXEC && !r->command) ||
        (r->kind == RUNNER_TRTEXEC && text[7] && text[8] && !r->command) ||
        (r->kind == RUNNER_ORT && !r->ep_of_target && !r->ep)) {
        runner_spec_free(r);
        snprintf(why, size, "out of memory");
        return -1;
    }
    if (strchr(text, '\n')) {
        runner_spec_free(r);
        snprintf(why, size, "--runner must be one line");
        return -1;
    }
    return 0;
}

void runner_spec_free(runner_spec *r)
{
    free(r->name);
    free(r->command);
    free(r->ep);
    memset(r, 0, sizeof *r);
}

/* ---- small helpers ---------------------------------------------------------- */

double runner_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int runner_parse_seconds(const char *s, double *out)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    if (n == 3 && (s[0] == 'i' || s[0] == 'I') && (s[1] == 'n' || s[1] == 'N') &&
        (s[2] == 'f' || s[2] == 'F')) {
        *out = INFINITY;
        return 0;
    }
    /* digits [. digits] [e [+-] digits], at least one digit before the
     * exponent; what strtod reads of that is locale-free in byoc (the C
     * locale is never changed). */
    size_t i = 0, digits = 0;
    if (i < n && s[i] == '+')
        i++;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++, digits++;
    if (i < n && s[i] == '.')
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            digits++;
    if (!digits)
        return -1;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t e = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++, e++;
        if (!e)
            return -1;
    }
    if (i != n || n > 64)
        return -1;
    char buf[72];
    memcpy(buf, s, n);
    buf[n] = '\0';
    double v = strtod(buf, NULL);
    if (!(v >= 0) || isinf(v))
        return -1;
    *out = v;
    return 0;
}

char *runner_shell_quote(const char *s)
{
    size_t n = 2;
    for (const char *p = s; *p; p++)
        n += *p == '\'' ? 4 : 1;
    char *q = malloc(n + 1), *w = q;
    if (!q)
        return NULL;
    *w++ = '\'';
    for (const char *p = s; *p; p++) {
        if (*p == '\'') {
            memcpy(w, "'\\''", 4);
            w += 4;
        } else
            *w++ = *p;
    }
    *w++ = '\'';
    *w = '\0';
    return q;
}

/* A growing string; on allocation failure it stays failed. */
typedef struct sbuf {
    char *s;
    size_t len, cap;
    bool failed;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1) {
            if (cap > SIZE_MAX / 2) {
                b->failed = true;
                return;
            }
            cap *= 2;
        }
        char *t = realloc(b->s, cap);
        if (!t) {
            b->failed = true;
            return;
        }
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void sb_str(sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

static void sb_quoted(sbuf *b, const char *s)
{
    char *q = runner_shell_quote(s);
    if (!q) {
        b->failed = true;
        return;
    }
    sb_str(b, q);
    free(q);
}

static char *sb_take(sbuf *b)
{
    if (b->failed || !b->s) {
        free(b->s);
        return b->failed ? NULL : strdup("");
    }
    return b->s;
}

static const char *job_device(const runner_job *j, const runner_config *c)
{
    return c->device ? c->device : j->device ? j->device : "";
}

char *runner_substitute(const char *t, const runner_job *j, const runner_config *c)
{
    char warmup[24], repeat[24];
    snprintf(warmup, sizeof warmup, "%d", c->warmup);
    snprintf(repeat, sizeof repeat, "%d", c->repeat);
    const struct {
        const char *name;
        const char *value;
    } ph[] = {
        {"{model}", j->model},         {"{target}", j->target},
        {"{device}", job_device(j, c)}, {"{signature}", j->signature},
        {"{runtime}", j->runtime ? j->runtime : ""}, {"{warmup}", warmup},
        {"{repeat}", repeat},
    };
    sbuf b = {0};
    for (const char *p = t; *p;) {
        size_t k = 0;
        while (k < sizeof ph / sizeof *ph && strncmp(p, ph[k].name, strlen(ph[k].name)) != 0)
            k++;
        if (k < sizeof ph / sizeof *ph) {
            sb_quoted(&b, ph[k].value);
            p += strlen(ph[k].name);
        } else {
            sb_add(&b, p, 1);
            p++;
        }
    }
    return sb_take(&b);
}

/* ---- signals ------------------------------------------------------------------ */

static int sig_pipe[2] = {-1, -1};
static volatile sig_atomic_t sig_got, sig_count;
static bool sig_installed;
static struct sigaction old_int, old_term, old_hup, old_quit, old_chld, old_pipe;
static bool chld_installed;

static void on_signal(int signo)
{
    int saved = errno;
    if (signo == SIGINT || signo == SIGTERM || signo == SIGHUP || signo == SIGQUIT) {
        if (!sig_got)
            sig_got = signo;
        sig_count++;
    }
    if (sig_pipe[1] >= 0) {
        ssize_t w = write(sig_pipe[1], "x", 1);
        (void)w;
    }
    errno = saved;
}

static void set_nonblock_cloexec(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static void open_sig_pipe(void)
{
    if (sig_pipe[0] >= 0)
        return;
    if (pipe(sig_pipe) != 0) {
        sig_pipe[0] = sig_pipe[1] = -1;
        return;
    }
    set_nonblock_cloexec(sig_pipe[0]);
    set_nonblock_cloexec(sig_pipe[1]);
}

void runner_signals_install(void)
{
    if (sig_installed)
        return;
    open_sig_pipe();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* A SIGINT ignored from the start (a background job of a shell
     * without job control) stays ignored, as shells expect. */
    sigaction(SIGINT, NULL, &old_int);
    if (old_int.sa_handler != SIG_IGN)
        sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, &old_term);
    /* A closed terminal or a lost ssh session: the children run in
     * process groups of their own, so they would outlive byoc otherwise. */
    sigaction(SIGHUP, NULL, &old_hup);
    if (old_hup.sa_handler != SIG_IGN)
        sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGQUIT, NULL, &old_quit);
    if (old_quit.sa_handler != SIG_IGN)
        sigaction(SIGQUIT, &sa, NULL);
    sig_installed = true;
}

void runner_signals_restore(void)
{
    if (!sig_installed)
        return;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    sig_installed = false;
}

int runner_interrupted(void) { return (int)sig_got; }

static void install_child_signals(void)
{
    open_sig_pipe();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NOCLDSTOP;
    sigaction(SIGCHLD, &sa, &old_chld);
    /* A worker that dies while byoc writes its request must not kill byoc. */
    sa.sa_handler = SIG_IGN;
    sa.sa_flags = 0;
    sigaction(SIGPIPE, &sa, &old_pipe);
    chld_installed = true;
}

static void restore_child_signals(void)
{
    if (!chld_installed)
        return;
    sigaction(SIGCHLD, &old_chld, NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
    chld_installed = false;
}

static void drain_sig_pipe(void)
{
    char buf[64];
    while (sig_pipe[0] >= 0 && read(sig_pipe[0], buf, sizeof buf) > 0)
        ;
}

/* ---- lines of output ---------------------------------------------------------- */

typedef struct linebuf {
    char buf[LINE_MAX_LEN + 1];
    size_t len;
    bool cut;              /* the current line passed LINE_MAX_LEN */
} linebuf;

/* ---- slots ---------------------------------------------------------------------- */

typedef struct slot {
    runner_job *job;       /* NULL: idle */
    pid_t pid;             /* the live child, 0: none */
    int in, out, err;      /* our ends, -1: closed */
    linebuf lo, le;
    bool ready;            /* ORT: the worker said "ready" */
    bool sent;             /* ORT: the job's request is written */
    double worker_start;   /* ORT: when the worker was spawned */
    double deadline;       /* the job's (or the worker start's) limit, 0: none */
    double kill_at;        /* SIGKILL then, after a SIGTERM; 0: not sent */
    bool timed_out;
    int status;            /* the last reaped child's wait status */
    bool reaped;           /* a child exited and its pipes are drained */
    /* what the job's child said */
    bool have_seconds, bad_seconds;
    double seconds;
    char bad[64];
    char reply_error[MESSAGE_MAX + 1];   /* ORT: "error: ..." */
    bool have_reply;
    char last_out[MESSAGE_MAX + 1], last_err[MESSAGE_MAX + 1];
    /* TIME: the runs so far */
    int run;
    double run_start;
    double *times;
} slot;

typedef struct pool {
    const runner_spec *r;
    const runner_config *c;
    slot *slots;
    int nslots;
    runner_done_fn done;
    void *ctx;
    bool failed;           /* a fatal error: */
    char fatal[1024];      /* the first one */
} pool;

static void copy_message(char *dst, const char *src)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)src; *p && n < MESSAGE_MAX; p++)
        dst[n++] = *p < ' ' || *p == 0x7f ? ' ' : (char)*p;
    while (n && dst[n - 1] == ' ')
        n--;
    dst[n] = '\0';
}

static void set_fatal(pool *p, const char *fmt, const char *a, const char *b)
{
    if (p->failed)
        return;
    snprintf(p->fatal, sizeof p->fatal, fmt, a, b);
    p->failed = true;
}

/* trtexec's "GPU Compute Time: min = ... ms, ..., median = X ms, ...". */
static void trtexec_line(slot *s, const char *line)
{
    const char *g = strstr(line, "GPU Compute Time:");
    const char *m = g ? strstr(g, "median = ") : NULL;
    if (!m)
        return;
    m += 9;
    char num[64];
    size_t n = strcspn(m, " ");
    if (n == 0 || n >= sizeof num || strncmp(m + n, " ms", 3) != 0) {
        s->bad_seconds = true;
        snprintf(s->bad, sizeof s->bad, "%.40s", m);
        return;
    }
    memcpy(num, m, n);
    num[n] = '\0';
    char *end;
    double ms = strtod(num, &end);
    if (*end || !(ms >= 0) || isinf(ms)) {
        s->bad_seconds = true;
        snprintf(s->bad, sizeof s->bad, "%.40s", num);
        return;
    }
    s->have_seconds = true;
    s->bad_seconds = false;
    s->seconds = ms * 1e-3;
}

static void on_line(pool *p, slot *s, bool is_err, const char *line)
{
    const runner_kind kind = p->r->kind;
    if (line[strspn(line, " \t\r")])
        copy_message(is_err ? s->last_err : s->last_out, line);
    if (kind == RUNNER_TRTEXEC) {
        trtexec_line(s, line);
        return;
    }
    if (is_err)
        return;
    if (kind == RUNNER_ORT) {
        if (!strncmp(line, "ready", 5) && (!line[5] || line[5] == ' ')) {
            s->ready = true;
        } else if (!strncmp(line, "fatal: ", 7)) {
            set_fatal(p, "the onnxruntime worker: %s%s", line + 7, "");
        } else if (s->job && s->sent && !s->have_reply) {
            if (!strncmp(line, "seconds:", 8)) {
                s->have_reply = true;
                if (runner_parse_seconds(line + 8, &s->seconds) == 0)
                    s->have_seconds = true;
                else {
                    s->bad_seconds = true;
                    snprintf(s->bad, sizeof s->bad, "%.40s", line + 8);
                }
            } else if (!strncmp(line, "error: ", 7)) {
                s->have_reply = true;
                copy_message(s->reply_error, line + 7);
            }
        }
        return;
    }
    if (kind == RUNNER_COMMAND) {
        const char *q = line + strspn(line, " \t");
        if (strncmp(q, "seconds:", 8) != 0)
            return;
        double v;
        if (runner_parse_seconds(q + 8, &v) == 0) {
            s->have_seconds = true;
            s->bad_seconds = false;
            s->seconds = v;
        } else {
            s->bad_seconds = true;
            s->have_seconds = false;
            const char *t = q + 8 + strspn(q + 8, " \t");
            snprintf(s->bad, sizeof s->bad, "%.40s", t);
        }
    }
}

static void feed(pool *p, slot *s, bool is_err, const char *data, size_t n)
{
    linebuf *lb = is_err ? &s->le : &s->lo;
    for (size_t i = 0; i < n; i++) {
        char ch = data[i];
        if (ch == '\n') {
            lb->buf[lb->len] = '\0';
            if (lb->len && lb->buf[lb->len - 1] == '\r')
                lb->buf[lb->len - 1] = '\0';
            on_line(p, s, is_err, lb->buf);
            lb->len = 0;
            lb->cut = false;
        } else if (lb->len < LINE_MAX_LEN) {
            lb->buf[lb->len++] = ch;
        } else {
            lb->cut = true;
        }
    }
}

/* An unfinished last line counts as a line when the stream ends. */
static void flush_line(pool *p, slot *s, bool is_err)
{
    linebuf *lb = is_err ? &s->le : &s->lo;
    if (lb->len) {
        lb->buf[lb->len] = '\0';
        on_line(p, s, is_err, lb->buf);
        lb->len = 0;
    }
}

/* Read what is there; returns false at end of file (the fd is closed). */
static bool read_fd(pool *p, slot *s, bool is_err)
{
    int *fd = is_err ? &s->err : &s->out;
    char buf[4096];
    for (;;) {
        ssize_t n = read(*fd, buf, sizeof buf);
        if (n > 0) {
            feed(p, s, is_err, buf, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        flush_line(p, s, is_err);
        close(*fd);
        *fd = -1;
        return false;
    }
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* ---- spawning --------------------------------------------------------------------- */

static const char *const env_names[] = {"BYOC_MODEL=", "BYOC_TARGET=", "BYOC_DEVICE=",
                                        "BYOC_SIGNATURE=", "BYOC_RUNTIME=", "BYOC_WARMUP=",
                                        "BYOC_REPEAT="};
#define NENV (sizeof env_names / sizeof *env_names)

static bool ours(const char *e)
{
    for (size_t i = 0; i < NENV; i++)
        if (!strncmp(e, env_names[i], strlen(env_names[i])))
            return true;
    return false;
}

/* environ plus the job's BYOC_* variables; NULL on allocation failure. */
static char **job_env(const runner_job *j, const runner_config *c)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + NENV + 1, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!ours(environ[i]))
            env[k++] = environ[i];
    char warmup[24], repeat[24];
    snprintf(warmup, sizeof warmup, "%d", c->warmup);
    snprintf(repeat, sizeof repeat, "%d", c->repeat);
    const char *vals[NENV] = {j->model, j->target, job_device(j, c), j->signature,
                              j->runtime ? j->runtime : "", warmup, repeat};
    bool ok = true;
    for (size_t i = 0; i < NENV; i++) {
        env[k] = str_cat(env_names[i], vals[i]);
        ok &= env[k++] != NULL;
    }
    if (!ok) {
        for (size_t i = k - NENV; i < k; i++)
            free(env[i]);
        free(env);
        return NULL;
    }
    return env;
}

static void free_job_env(char **env)
{
    if (!env)
        return;
    size_t n = 0;
    while (env[n])
        n++;
    for (size_t i = n - NENV; i < n; i++)
        free(env[i]);
    free(env);
}

/* Spawn argv in a new process group, stdout and stderr to pipes, stdin a
 * pipe when want_stdin, else /dev/null.  Returns 0 or an errno value. */
static int spawn(slot *s, char *const argv[], char *const envp[], bool want_stdin, bool search)
{
    int po[2] = {-1, -1}, pe[2] = {-1, -1}, pi[2] = {-1, -1};
    int rc = 0;
    if (pipe(po) != 0 || pipe(pe) != 0 || (want_stdin && pipe(pi) != 0)) {
        rc = errno;
        goto fail;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    if (want_stdin)
        posix_spawn_file_actions_adddup2(&fa, pi[0], 0);
    else
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    sigset_t def, none;
    sigemptyset(&def);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    sigaddset(&def, SIGPIPE);
    sigaddset(&def, SIGCHLD);
    sigaddset(&def, SIGQUIT);
    sigaddset(&def, SIGHUP);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
                                      POSIX_SPAWN_SETSIGMASK);
    /* Every pipe end is close-on-exec, so no child holds another's. */
    int fds[6] = {po[0], po[1], pe[0], pe[1], pi[0], pi[1]};
    for (int i = 0; i < 6; i++)
        if (fds[i] >= 0)
            fcntl(fds[i], F_SETFD, FD_CLOEXEC);
    pid_t pid;
    rc = search ? posix_spawnp(&pid, argv[0], &fa, &at, argv, envp)
                : posix_spawn(&pid, argv[0], &fa, &at, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc != 0)
        goto fail;
    close(po[1]);
    close(pe[1]);
    if (want_stdin)
        close(pi[0]);
    s->pid = pid;
    s->out = po[0];
    s->err = pe[0];
    s->in = want_stdin ? pi[1] : -1;
    set_nonblock_cloexec(s->out);
    set_nonblock_cloexec(s->err);
    s->lo.len = s->le.len = 0;
    s->reaped = false;
    s->kill_at = 0;
    return 0;
fail:
    for (int i = 0; i < 2; i++) {
        if (po[i] >= 0)
            close(po[i]);
        if (pe[i] >= 0)
            close(pe[i]);
        if (pi[i] >= 0)
            close(pi[i]);
    }
    return rc ? rc : EIO;
}

static void reset_results(slot *s)
{
    s->have_seconds = s->bad_seconds = s->have_reply = false;
    s->seconds = 0;
    s->bad[0] = s->reply_error[0] = s->last_out[0] = s->last_err[0] = '\0';
    s->timed_out = false;
}

static int spawn_shell(pool *p, slot *s, const char *cmd)
{
    char *argv[] = {(char *)"/bin/sh", (char *)"-c", (char *)cmd, NULL};
    char **env = job_env(s->job, p->c);
    if (!env)
        return ENOMEM;
    int rc = spawn(s, argv, env, false, false);
    free_job_env(env);
    return rc;
}

/* The command line one job runs: the template substituted, or trtexec's. */
static char *job_command(pool *p, const runner_job *j)
{
    const runner_config *c = p->c;
    if (p->r->kind != RUNNER_TRTEXEC)
        return runner_substitute(p->r->command, j, c);
    sbuf b = {0};
    sb_quoted(&b, c->trtexec ? c->trtexec : "trtexec");
    sb_str(&b, " --onnx=");
    sb_quoted(&b, j->model);
    char nums[96];
    /* trtexec's warm-up is a duration: 10 ms for each warm-up run asked
     * for; --duration=0 makes --iterations the number of timed runs. */
    snprintf(nums, sizeof nums, " --warmUp=%lld --iterations=%d --duration=0",
             (long long)c->warmup * 10, c->repeat);
    sb_str(&b, nums);
    if (p->r->command) {
        sb_str(&b, " ");
        char *extra = runner_substitute(p->r->command, j, c);
        if (!extra)
            b.failed = true;
        else
            sb_str(&b, extra);
        free(extra);
    }
    return sb_take(&b);
}

static int start_command(pool *p, slot *s)
{
    char *cmd = job_command(p, s->job);
    if (!cmd) {
        set_fatal(p, "out of memory%s%s", "", "");
        return -1;
    }
    int rc = spawn_shell(p, s, cmd);
    free(cmd);
    if (rc) {
        set_fatal(p, "cannot run /bin/sh: %s%s", strerror(rc), "");
        return -1;
    }
    s->run_start = runner_now();
    return 0;
}

/* ---- the ONNX Runtime worker -------------------------------------------------------- */

static void json_str(sbuf *b, const char *s)
{
    sb_str(b, "\"");
    for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
        char e[8];
        if (*q == '"' || *q == '\\') {
            e[0] = '\\';
            e[1] = (char)*q;
            sb_add(b, e, 2);
        } else if (*q < 0x20) {
            snprintf(e, sizeof e, "\\u%04x", *q);
            sb_str(b, e);
        } else
            sb_add(b, (const char *)q, 1);
    }
    sb_str(b, "\"");
}

/* The provider a job runs on, onnxruntime-node's name; NULL when its
 * target names none. */
static const char *job_ep(const runner_spec *r, const runner_job *j)
{
    if (!r->ep_of_target)
        return ep_node_name(r->ep);
    if (!j->runtime || strncmp(j->runtime, "onnxruntime:", 12) != 0 || !j->runtime[12])
        return NULL;
    return ep_node_name(j->runtime + 12);
}

static int start_worker(pool *p, slot *s, runner_job *jobs, size_t njobs)
{
    const runner_config *c = p->c;
    /* node SCRIPT --worker [--ort DIR] [--ep E]... [--dim N=V]... */
    size_t max = 6 + 2 * (size_t)c->ndims + 2 * njobs;
    char **argv = calloc(max + 1, sizeof *argv);
    if (!argv) {
        set_fatal(p, "out of memory%s%s", "", "");
        return -1;
    }
    size_t k = 0;
    argv[k++] = (char *)(c->node ? c->node : "node");
    argv[k++] = (char *)c->script;
    argv[k++] = (char *)"--worker";
    if (c->ort_dir) {
        argv[k++] = (char *)"--ort";
        argv[k++] = (char *)c->ort_dir;
    }
    /* Each provider once, for the worker to check before the first kernel. */
    for (size_t i = 0; i < njobs; i++) {
        const char *ep = job_ep(p->r, &jobs[i]);
        bool seen = !ep;
        for (size_t m = 3; m + 1 < k && !seen; m++)
            seen = !strcmp(argv[m], "--ep") && !strcmp(argv[m + 1], ep);
        if (!seen && ep) {
            argv[k++] = (char *)"--ep";
            argv[k++] = (char *)ep;
        }
        if (!p->r->ep_of_target)
            break;
    }
    for (int i = 0; i < c->ndims; i++) {
        argv[k++] = (char *)"--dim";
        argv[k++] = (char *)c->dims[i];
    }
    argv[k] = NULL;
    int rc = spawn(s, argv, environ, true, true);
    free(argv);
    if (rc) {
        set_fatal(p, "cannot run node ('%s'): %s; set BYOC_NODE to the node program",
                  c->node ? c->node : "node", strerror(rc));
        return -1;
    }
    s->ready = false;
    s->sent = false;
    s->worker_start = runner_now();
    s->last_err[0] = s->last_out[0] = '\0';
    return 0;
}

static int send_request(pool *p, slot *s)
{
    const runner_job *j = s->job;
    sbuf b = {0};
    char nums[64];
    sb_str(&b, "{\"model\":");
    json_str(&b, j->model);
    sb_str(&b, ",\"ep\":");
    json_str(&b, job_ep(p->r, j));
    snprintf(nums, sizeof nums, ",\"warmup\":%d,\"repeat\":%d}\n", p->c->warmup, p->c->repeat);
    sb_str(&b, nums);
    char *line = sb_take(&b);
    if (!line) {
        set_fatal(p, "out of memory%s%s", "", "");
        return -1;
    }
    size_t n = strlen(line), off = 0;
    while (off < n) {
        ssize_t w = write(s->in, line + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;   /* the worker died: its exit is seen next */
        off += (size_t)w;
    }
    free(line);
    s->sent = true;
    s->run_start = runner_now();
    if (p->c->timeout > 0)
        s->deadline = s->run_start + p->c->timeout;
    return 0;
}

/* ---- jobs ---------------------------------------------------------------------------------- */

static void begin_job(pool *p, slot *s, runner_job *j, runner_job *jobs, size_t njobs)
{
    s->job = j;
    reset_results(s);
    s->run = 0;
    s->deadline = 0;
    double t = runner_now();
    switch (p->r->kind) {
    case RUNNER_ORT:
        s->sent = false;
        s->have_reply = false;
        if (!s->pid && start_worker(p, s, jobs, njobs) != 0)
            return;
        if (s->ready)
            send_request(p, s);
        else
            s->deadline = s->worker_start + (p->c->timeout > WORKER_START_LIMIT
                                                 ? p->c->timeout : WORKER_START_LIMIT);
        return;
    case RUNNER_TIME:
    case RUNNER_COMMAND:
    case RUNNER_TRTEXEC:
        if (p->c->timeout > 0)
            s->deadline = t + p->c->timeout;
        start_command(p, s);
        return;
    }
}

static void finish(pool *p, slot *s, double seconds, const char *reason)
{
    runner_job *j = s->job;
    j->done = true;
    j->seconds = seconds;
    j->why = NULL;
    if (reason) {
        const char *last = s->last_err[0] ? s->last_err : s->last_out;
        size_t n = strlen(reason) + strlen(last) + 3;
        j->why = malloc(n);
        if (j->why)
            snprintf(j->why, n, "%s%s%s", reason, last[0] ? ": " : "", last);
    }
    s->job = NULL;
    s->deadline = 0;
    if (p->done)
        p->done(j, p->ctx);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGINT: return "SIGINT";
    default: return "a signal";
    }
}

/* Why a child's exit is a failure, or NULL when it exited 0. */
static const char *exit_reason(const slot *s, char *buf, size_t size, const runner_config *c)
{
    if (s->timed_out) {
        snprintf(buf, size, "timed out after %g s", c->timeout);
        return buf;
    }
    if (WIFSIGNALED(s->status)) {
        snprintf(buf, size, "killed by %s (%d)", signal_name(WTERMSIG(s->status)),
                 WTERMSIG(s->status));
        return buf;
    }
    if (WIFEXITED(s->status) && WEXITSTATUS(s->status) != 0) {
        snprintf(buf, size, "exit status %d", WEXITSTATUS(s->status));
        return buf;
    }
    return NULL;
}

/* The shell says 126 (not executable) and 127 (not found): the runner
 * itself is wrong, not the kernel. */
static bool shell_cannot_run(const slot *s)
{
    return !s->timed_out && WIFEXITED(s->status) &&
           (WEXITSTATUS(s->status) == 126 || WEXITSTATUS(s->status) == 127);
}

/* The job's child (not a worker) exited and its output is read. */
static void command_done(pool *p, slot *s)
{
    const runner_config *c = p->c;
    char buf[160];
    const char *why = exit_reason(s, buf, sizeof buf, c);
    if (shell_cannot_run(s)) {
        const char *last = s->last_err[0] ? s->last_err : s->last_out;
        set_fatal(p, "the runner command cannot run (exit status 127 or 126: not found or "
                     "not executable)%s%s", last[0] ? ": " : "", last);
        s->job = NULL;   /* not done: it is measured when the runner is fixed */
        return;
    }
    if (p->r->kind == RUNNER_TIME) {
        if (why) {
            char r[200];
            snprintf(r, sizeof r, "run %d of %d: %s", s->run + 1, c->warmup + c->repeat, why);
            finish(p, s, INFINITY, r);
            return;
        }
        double t = runner_now() - s->run_start;
        if (s->run >= c->warmup)
            s->times[s->run - c->warmup] = t;
        s->run++;
        if (s->run < c->warmup + c->repeat) {
            s->last_out[0] = s->last_err[0] = '\0';
            start_command(p, s);
            return;
        }
        finish(p, s, median(s->times, c->repeat), NULL);
        return;
    }
    if (why) {
        finish(p, s, INFINITY, why);
        return;
    }
    if (s->have_seconds) {
        finish(p, s, s->seconds, NULL);
        return;
    }
    if (s->bad_seconds) {
        snprintf(buf, sizeof buf, "bad time '%s' (expected seconds, a non-negative decimal or "
                                  "inf)", s->bad);
        s->last_err[0] = s->last_out[0] = '\0';
        finish(p, s, INFINITY, buf);
        return;
    }
    finish(p, s, INFINITY, p->r->kind == RUNNER_TRTEXEC
                               ? "printed no 'GPU Compute Time: ... median = X ms' line"
                               : "printed no 'seconds: X' line");
}

/* The worker exited: a failure of the job it was running, or of the
 * worker itself when it never became ready. */
static void worker_exited(pool *p, slot *s)
{
    close_fd(&s->in);
    bool was_ready = s->ready;
    s->ready = false;
    s->sent = false;
    if (!s->job)
        return;
    const runner_config *c = p->c;
    char buf[160];
    const char *why = exit_reason(s, buf, sizeof buf, c);
    if (!was_ready) {
        const char *last = s->last_err[0] ? s->last_err : s->last_out;
        if (s->timed_out)
            set_fatal(p, "the onnxruntime worker did not start in time%s%s",
                      last[0] ? ": " : "", last);
        else
            set_fatal(p, "the onnxruntime worker failed to start%s%s", last[0] ? ": " : "",
                      last[0] ? last : why ? why : "it exited");
        s->job = NULL;
        return;
    }
    char r[200];
    snprintf(r, sizeof r, "the onnxruntime worker %s", why ? why : "exited");
    finish(p, s, INFINITY, r);
}

/* The worker replied to the job's request. */
static void worker_replied(pool *p, slot *s)
{
    if (s->have_seconds) {
        finish(p, s, s->seconds, NULL);
    } else if (s->bad_seconds) {
        char buf[160];
        snprintf(buf, sizeof buf, "bad time '%s' from the onnxruntime worker", s->bad);
        s->last_err[0] = s->last_out[0] = '\0';
        finish(p, s, INFINITY, buf);
    } else {
        char msg[MESSAGE_MAX + 1];
        memcpy(msg, s->reply_error, sizeof msg);
        s->last_err[0] = s->last_out[0] = '\0';
        finish(p, s, INFINITY, msg[0] ? msg : "failed");
    }
}

/* If the slot's child has exited: kill what is left of its group, reap
 * it, read the rest of its output.  Returns true when it had. */
static bool reap(pool *p, slot *s)
{
    if (!s->pid)
        return false;
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (waitid(P_PID, (id_t)s->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0)
        return false;
    /* The zombie keeps its pid, so the group id cannot have been reused. */
    kill(-s->pid, SIGKILL);
    int status = 0;
    while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
        ;
    s->status = status;
    s->pid = 0;
    s->kill_at = 0;
    /* Everything in the group is dead: what it wrote is in the pipes. */
    if (s->out >= 0)
        read_fd(p, s, false);
    if (s->err >= 0)
        read_fd(p, s, true);
    flush_line(p, s, false);
    flush_line(p, s, true);
    close_fd(&s->out);
    close_fd(&s->err);
    return true;
}

static void terminate(slot *s, double grace)
{
    if (!s->pid || s->kill_at)
        return;
    kill(-s->pid, SIGTERM);
    s->kill_at = runner_now() + grace;
}

/* Stop every child: SIGTERM, up to the grace period, then SIGKILL (at
 * once after a second Ctrl-C). */
static void stop_all(pool *p, double grace)
{
    for (int i = 0; i < p->nslots; i++) {
        close_fd(&p->slots[i].in);
        terminate(&p->slots[i], grace);
    }
    for (;;) {
        bool alive = false;
        double t = runner_now(), wake = t + 0.05;
        for (int i = 0; i < p->nslots; i++) {
            slot *s = &p->slots[i];
            if (!s->pid)
                continue;
            if (reap(p, s))
                continue;
            alive = true;
            if (t >= s->kill_at || sig_count >= 2)
                kill(-s->pid, SIGKILL);
            else if (s->kill_at < wake)
                wake = s->kill_at;
        }
        if (!alive)
            break;
        struct pollfd pf = {.fd = sig_pipe[0], .events = POLLIN};
        int ms = (int)((wake - t) * 1000) + 1;
        poll(&pf, sig_pipe[0] >= 0, ms < 1 ? 1 : ms);
        drain_sig_pipe();
    }
    for (int i = 0; i < p->nslots; i++) {
        close_fd(&p->slots[i].out);
        close_fd(&p->slots[i].err);
    }
}

runner_status runner_run(const runner_spec *r, const runner_config *c, runner_job *jobs,
                         size_t njobs, runner_done_fn done, void *ctx, char *err,
                         size_t errsize)
{
    bool own_signals = !sig_installed;
    if (own_signals)
        runner_signals_install();
    install_child_signals();
    pool p = {.r = r, .c = c, .done = done, .ctx = ctx};
    runner_status status = RUNNER_FINISHED;
    err[0] = '\0';
    if (r->kind == RUNNER_ORT && r->ep_of_target)
        for (size_t i = 0; i < njobs; i++)
            if (!jobs[i].done && !job_ep(r, &jobs[i])) {
                snprintf(err, errsize,
                         "--runner onnxruntime:target: target '%s' names no ONNX Runtime "
                         "execution provider (its runtime is %s%s%s); name one, as in "
                         "--runner onnxruntime:cpu",
                         jobs[i].target, jobs[i].runtime ? "'" : "none",
                         jobs[i].runtime ? jobs[i].runtime : "", jobs[i].runtime ? "'" : "");
                status = RUNNER_FATAL;
                goto out;
            }
    p.nslots = c->jobs < 1 ? 1 : c->jobs;
    if ((size_t)p.nslots > njobs)
        p.nslots = njobs ? (int)njobs : 1;
    p.slots = calloc((size_t)p.nslots, sizeof *p.slots);
    if (!p.slots) {
        snprintf(err, errsize, "out of memory");
        status = RUNNER_FATAL;
        goto out;
    }
    for (int i = 0; i < p.nslots; i++) {
        slot *s = &p.slots[i];
        s->in = s->out = s->err = -1;
        if (r->kind == RUNNER_TIME && !(s->times = calloc((size_t)c->repeat, sizeof(double)))) {
            snprintf(err, errsize, "out of memory");
            status = RUNNER_FATAL;
            goto out;
        }
    }
    size_t next = 0;
    double next_tick = runner_now() + 0.5;
    struct pollfd *pfd = calloc(2 * (size_t)p.nslots + 1, sizeof *pfd);
    if (!pfd) {
        snprintf(err, errsize, "out of memory");
        status = RUNNER_FATAL;
        goto out;
    }
    for (;;) {
        if (sig_got) {
            status = RUNNER_INTERRUPTED;
            break;
        }
        if (p.failed) {
            status = RUNNER_FATAL;
            break;
        }
        bool busy = false;
        for (int i = 0; i < p.nslots && !p.failed; i++) {
            slot *s = &p.slots[i];
            while (!s->job && next < njobs && jobs[next].done)
                next++;
            if (!s->job && next < njobs)
                begin_job(&p, s, &jobs[next++], jobs, njobs);
            busy |= s->job != NULL;
        }
        if (p.failed)
            continue;
        if (!busy)
            break;
        /* poll until output, a signal, a deadline or the next tick */
        double t = runner_now(), wake = next_tick;
        int n = 0;
        if (sig_pipe[0] >= 0)
            pfd[n++] = (struct pollfd){.fd = sig_pipe[0], .events = POLLIN};
        for (int i = 0; i < p.nslots; i++) {
            slot *s = &p.slots[i];
            if (s->out >= 0)
                pfd[n++] = (struct pollfd){.fd = s->out, .events = POLLIN};
            if (s->err >= 0)
                pfd[n++] = (struct pollfd){.fd = s->err, .events = POLLIN};
            if (s->deadline && s->deadline < wake && !s->kill_at)
                wake = s->deadline;
            if (s->kill_at && s->kill_at < wake)
                wake = s->kill_at;
        }
        int ms = wake > t ? (int)((wake - t) * 1000) + 1 : 0;
        if (poll(pfd, (nfds_t)n, ms) < 0 && errno != EINTR) {
            snprintf(err, errsize, "poll: %s", strerror(errno));
            status = RUNNER_FATAL;
            break;
        }
        drain_sig_pipe();
        for (int i = 0; i < p.nslots; i++) {
            slot *s = &p.slots[i];
            if (s->out >= 0)
                read_fd(&p, s, false);
            if (s->err >= 0)
                read_fd(&p, s, true);
        }
        t = runner_now();
        for (int i = 0; i < p.nslots; i++) {
            slot *s = &p.slots[i];
            bool exited = reap(&p, s);
            if (r->kind == RUNNER_ORT) {
                /* a reply read before the worker died still counts */
                if (s->job && s->sent && s->have_reply)
                    worker_replied(&p, s);
                if (exited)
                    worker_exited(&p, s);
                else if (s->job && !s->sent && s->ready) {
                    s->deadline = 0;
                    send_request(&p, s);
                }
            } else if (exited && s->job) {
                command_done(&p, s);
            }
            if (exited || !s->pid)
                continue;
            if (s->kill_at && t >= s->kill_at) {
                kill(-s->pid, SIGKILL);
            } else if (s->job && s->deadline && t >= s->deadline && !s->kill_at) {
                s->timed_out = true;
                terminate(s, c->grace);
            }
        }
        if (t >= next_tick) {
            next_tick = t + 0.5;
            if (done)
                done(NULL, ctx);
        }
    }
    free(pfd);
out:
    if (p.slots) {
        stop_all(&p, c->grace);
        for (int i = 0; i < p.nslots; i++)
            free(p.slots[i].times);
        free(p.slots);
    }
    if (p.failed) {
        snprintf(err, errsize, "%s", p.fatal);
        status = RUNNER_FATAL;
    }
    restore_child_signals();
    drain_sig_pipe();
    if (own_signals)
        runner_signals_restore();
    return status;
}
