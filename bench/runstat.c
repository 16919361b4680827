/* Run one command and say how it went: wall time, peak memory, status.
 *
 *   bench/runstat [-t SECONDS] [-m MEGABYTES] [-o FILE] COMMAND [ARG]...
 *
 * bench/scale.sh measures whole byoc processes with it.  The parent forks,
 * execs, and reads the child's own resource usage from wait4, so the peak
 * resident memory is the child's and needs no GNU time.  -t kills the
 * child's process group after SECONDS (the child leads a group of its
 * own, so what it starts dies with it); -m caps its address space, so that
 * a run that would take the machine's memory fails inside the child, where
 * byoc reports "out of memory", instead of pushing others out.  One line
 * goes to FILE (default: standard error):
 *
 *   status exit 0 wall 1.234 maxrss_kb 56789
 *
 * the status being "exit N", "signal N" or "timeout".  The exit status is
 * the child's, 124 after a timeout (as timeout(1) has it), 128 + N after
 * signal N, 125 when runstat itself fails and 127 when COMMAND cannot run. */
#define _DEFAULT_SOURCE /* wait4 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got_alarm, got_signal;

static void on_alarm(int sig)
{
    (void)sig;
    got_alarm = 1;
}

static void on_signal(int sig)
{
    got_signal = sig;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void usage(FILE *f)
{
    fputs("usage: runstat [-t SECONDS] [-m MEGABYTES] [-o FILE] COMMAND [ARG]...\n"
          "runs COMMAND and writes 'status exit|signal N|timeout wall S maxrss_kb K'\n"
          "to FILE (default: standard error); -t kills it after SECONDS, -m caps its\n"
          "address space at MEGABYTES\n",
          f);
}

static long number(const char *opt, const char *s)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : -1;
    if (!s || errno || end == s || *end || v < 1) {
        fprintf(stderr, "runstat: %s needs a positive whole number\n", opt);
        usage(stderr);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    long timeout = 0, mem_mb = 0;
    const char *out = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "-t")) {
            timeout = number("-t", i + 1 < argc ? argv[++i] : NULL);
        } else if (!strcmp(argv[i], "-m")) {
            mem_mb = number("-m", i + 1 < argc ? argv[++i] : NULL);
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else {
            fprintf(stderr, "runstat: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    FILE *f = out ? fopen(out, "w") : stderr;
    if (!f) {
        fprintf(stderr, "runstat: cannot write %s: %s\n", out, strerror(errno));
        return 125;
    }

    struct sigaction sa = {0};
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_alarm; /* no SA_RESTART: wait4 must return */
    sigaction(SIGALRM, &sa, NULL);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);

    double start = now();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "runstat: fork: %s\n", strerror(errno));
        return 125;
    }
    if (pid == 0) {
        setpgid(0, 0);
        if (mem_mb) {
            struct rlimit rl = {.rlim_cur = (rlim_t)mem_mb << 20, .rlim_max = (rlim_t)mem_mb << 20};
            if (setrlimit(RLIMIT_AS, &rl))
                fprintf(stderr, "runstat: cannot cap memory: %s\n", strerror(errno));
        }
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        execvp(argv[i], argv + i);
        fprintf(stderr, "runstat: cannot run %s: %s\n", argv[i], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* either side may get there first */
    if (timeout)
        alarm((unsigned)timeout);

    int st = 0;
    struct rusage ru = {0};
    int timed_out = 0;
    for (;;) {
        pid_t w = wait4(pid, &st, 0, &ru);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            fprintf(stderr, "runstat: wait4: %s\n", strerror(errno));
            return 125;
        }
        if (got_alarm && !timed_out) {
            timed_out = 1;
            kill(-pid, SIGKILL);
        }
        if (got_signal) {
            kill(-pid, SIGKILL);
            got_signal = 0;
        }
    }
    double wall = now() - start;
    int rc;
    char status[32];
    if (timed_out) {
        snprintf(status, sizeof status, "timeout");
        rc = 124;
    } else if (WIFSIGNALED(st)) {
        snprintf(status, sizeof status, "signal %d", WTERMSIG(st));
        rc = 128 + WTERMSIG(st);
    } else {
        snprintf(status, sizeof status, "exit %d", WEXITSTATUS(st));
        rc = WEXITSTATUS(st);
    }
    fprintf(f, "status %s wall %.3f maxrss_kb %ld\n", status, wall, (long)ru.ru_maxrss);
    if (out && fclose(f)) {
        fprintf(stderr, "runstat: writing %s: %s\n", out, strerror(errno));
        return 125;
    }
    return rc;
}
