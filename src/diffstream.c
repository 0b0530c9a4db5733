/* diffstream.c - comparing PNG files while they decode (diffstream.h):
 * two files on two threads through rings of rows, or a file against a
 * frame in memory in the calling thread. */
#define _GNU_SOURCE 1   /* sched_getcpu, pthread_attr_setaffinity_np */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diffstream.h"

/* ------------------------------------------------- two files, two threads */

/* A ring holds at most this many bytes of rows (at least RF_DIFF_RING_MIN
 * rows): both rings stay in L2, and the slack lets the decoders drift
 * apart without waiting. Measured on the 1080p showcase pair: 64 KiB
 * 1.3x, 256 KiB 1.09x, 2 MiB 1.05x and 4 MiB 1.13x the time of 1 MiB. */
#define DIFF_RING_BYTES (1024u * 1024u)

struct diff_job;

/* One file, decoded into its own ring of rows (or whole image). */
typedef struct diff_side {
    struct diff_job *job;
    int index;                 /* 0: A, 1: B */
    const char *path;
    rf_png_rgba_t img;         /* pixels: ring rows, or the whole image */
    uint32_t ring;             /* rows img.pixels holds; 0: all of them */
    rf_png_error_t err;
    rf_png_status_t st;
    int no_memory;             /* 1: diff_header found no memory */
} diff_side_t;

/* The comparison both decoding threads feed. A thread that finds the lock
 * taken does not wait (a futex sleep per row cost more than the whole
 * comparison): it publishes its row count and goes on decoding; the thread
 * holding the lock, or the next one to get it, compares those rows. A
 * thread waits only for a ring slot, and then for half a ring, so waits
 * are rare. They cannot deadlock: a thread feeds the differ before it
 * waits, and two threads each a ring ahead of the other is impossible. */
typedef struct diff_job {
    pthread_mutex_t lock;
    pthread_cond_t wake[2];    /* side i's thread waits for a slot */
    diff_side_t side[2];
    _Atomic uint32_t rows[2];  /* rows decoded so far (release: the pixels
                                  are written before the count) */
    _Atomic uint32_t writable; /* rf_diff_writable() after the last feed
                                  (release: the compared rows were read) */
    uint32_t want[2];          /* side i sleeps until writable >= want[i]
                                  (lock); 0: it is not waiting */
    int have[2];               /* 1: the side's header arrived (lock) */
    atomic_int started;        /* 1: the differ began (same sizes) */
    atomic_int free_run;       /* 1: nothing reads the rings any more (sizes
                                  differ, a side failed): write anywhere */
    int failed;                /* out of memory for the diff image */
    int use_ring;              /* 0: no second thread, whole images */
    int ring_rows;             /* rf_diffstream_options_t.ring_rows */
    const rf_diff_options_t *o;
    int want_image;            /* the caller wants the diff image */
    uint8_t *image;            /* the diff image */
    rf_diff_t d;
    cpu_set_t cpus;            /* the process's CPUs, restored after the join */
    int pinned;                /* 1: this thread is pinned to its CPU */
    int free_b;                /* 1: B starts pinned and frees itself at once */
} diff_job_t;

/* Rows of a ring for this image, or 0 for the whole image. */
static uint32_t diff_ring_rows(const diff_job_t *j, uint32_t width, uint32_t height)
{
    uint32_t r = RF_DIFF_RING_MIN;
    if (!j->use_ring || j->ring_rows < 0)
        return 0;
    if (j->ring_rows > 0)
        r = (uint32_t)j->ring_rows;
    else
        while (r < 4096 && (uint64_t)r * 2 * width * 4 <= DIFF_RING_BYTES)
            r *= 2; /* the largest power of two that fits */
    return height > 2 * (uint64_t)r ? r : 0;
}

static void diff_job_wake(diff_job_t *j)
{
    pthread_cond_broadcast(&j->wake[0]);
    pthread_cond_broadcast(&j->wake[1]);
}

/* Under lock: compares every row both sides have, publishes how far the
 * rings may now be written and wakes a side waiting for that. */
static void diff_job_feed(diff_job_t *j)
{
    if (!atomic_load(&j->started) || atomic_load(&j->free_run))
        return;
    uint32_t r0 = atomic_load_explicit(&j->rows[0], memory_order_acquire);
    uint32_t r1 = atomic_load_explicit(&j->rows[1], memory_order_acquire);
    rf_diff_feed(&j->d, r0 < r1 ? r0 : r1);
    uint32_t w = rf_diff_writable(&j->d);
    atomic_store_explicit(&j->writable, w, memory_order_release);
    for (int i = 0; i < 2; i++)
        if (j->want[i] != 0 && w >= j->want[i])
            pthread_cond_signal(&j->wake[i]);
}

/* Called under lock once both headers are in: starts the differ when the
 * sizes agree; otherwise nothing will compare the rows. */
static void diff_job_start(diff_job_t *j)
{
    const diff_side_t *a = &j->side[0], *b = &j->side[1];
    if (atomic_load(&j->started) || atomic_load(&j->free_run))
        return;
    if (a->img.width != b->img.width || a->img.height != b->img.height) {
        atomic_store(&j->free_run, 1);
        return;
    }
    if (j->want_image) {
        size_t bytes = (size_t)a->img.width * a->img.height * 4;
        /* pixelmatch's mask leaves undrawn pixels transparent */
        j->image = j->o->diff_mask ? calloc(1, bytes) : malloc(bytes);
        if (j->image == NULL) {
            j->failed = 1;
            atomic_store(&j->free_run, 1);
            return;
        }
    }
    /* equal sizes give equal rings */
    rf_diff_begin_ring(&j->d, a->img.pixels, b->img.pixels, j->image, a->img.width,
                       a->img.height, a->ring, j->o);
    atomic_store_explicit(&j->writable, rf_diff_writable(&j->d), memory_order_release);
    atomic_store(&j->started, 1);
}

static int diff_header(void *ctx, const rf_png_info_t *info)
{
    diff_side_t *s = ctx;
    diff_job_t *j = s->job;
    uint32_t ring = diff_ring_rows(j, info->width, info->height);
    uint8_t *px = malloc((size_t)info->width * (ring != 0 ? ring : info->height) * 4);
    if (px == NULL)
        return 1;
    pthread_mutex_lock(&j->lock);
    s->img.pixels = px;
    s->img.width = info->width;
    s->img.height = info->height;
    s->img.info = *info;
    s->ring = ring;
    j->have[s->index] = 1;
    if (j->have[0] && j->have[1]) {
        diff_job_start(j);
        diff_job_wake(j);
    }
    pthread_mutex_unlock(&j->lock);
    return 0;
}

/* 1 when row y of side s may be written now: its slot is empty (y < ring)
 * or holds a row no comparison reads again. */
static int diff_slot_free(diff_job_t *j, const diff_side_t *s, uint32_t y)
{
    return s->ring == 0 || y < s->ring || atomic_load(&j->free_run) ||
           (atomic_load(&j->started) &&
            y < atomic_load_explicit(&j->writable, memory_order_acquire));
}

/* Row y's place in side s's buffer, once it may be written. */
static uint8_t *diff_slot(diff_side_t *s, uint32_t y)
{
    diff_job_t *j = s->job;
    if (!diff_slot_free(j, s, y)) {
        pthread_mutex_lock(&j->lock);
        for (;;) {
            diff_job_feed(j);
            if (diff_slot_free(j, s, y))
                break;
            /* half a ring of slack before waking (the most the other side
             * can free while this one stands still is ring - 4 rows) */
            j->want[s->index] = y + 1 + (s->ring - 4) / 2;
            pthread_cond_wait(&j->wake[s->index], &j->lock);
        }
        j->want[s->index] = 0;
        pthread_mutex_unlock(&j->lock);
    }
    uint32_t row = s->ring != 0 ? y & (s->ring - 1) : y;
    return s->img.pixels + (size_t)row * s->img.width * 4;
}

static uint8_t *diff_dest(void *ctx, uint32_t y)
{
    return diff_slot(ctx, y);
}

static int diff_row(void *ctx, uint32_t y, const uint8_t *rgba)
{
    diff_side_t *s = ctx;
    diff_job_t *j = s->job;
    uint8_t *to = diff_slot(s, y);
    if (to != rgba)            /* interlaced rows come assembled */
        memcpy(to, rgba, (size_t)s->img.width * 4);
    atomic_store_explicit(&j->rows[s->index], y + 1, memory_order_release);
    if (atomic_load(&j->started) && pthread_mutex_trylock(&j->lock) == 0) {
        diff_job_feed(j);
        pthread_mutex_unlock(&j->lock);
    }
    return 0;
}

static void *diff_decode(void *arg)
{
    diff_side_t *s = arg;
    diff_job_t *j = s->job;
    if (s->index == 1 && j->free_b)
        pthread_setaffinity_np(pthread_self(), sizeof j->cpus, &j->cpus);
    s->st = rf_png_decode_path_into(s->path, diff_header, diff_dest, diff_row, s, &s->err);
    if (s->st == RF_PNG_STOPPED) { /* only diff_header stops: no memory */
        s->no_memory = 1;
        snprintf(s->err.message, sizeof s->err.message, "%s: out of memory", s->path);
    }
    pthread_mutex_lock(&j->lock);
    if (s->st != RF_PNG_SUCCESS)
        atomic_store(&j->free_run, 1);   /* no comparison: the other side runs free */
    diff_job_feed(j);
    diff_job_wake(j);
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

/* 1 when nothing but this thread is runnable on the machine (the running
 * count of /proc/loadavg, "0.49 0.71 0.74 1/78 29960"); 0 when others are
 * or it cannot be read. */
static int diff_machine_idle(void)
{
    char buf[128];
    int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    const char *slash = strchr(buf, '/');
    if (slash == NULL || slash - buf < 2 || slash[-2] != ' ')
        return 0;
    return slash[-1] == '1';
}

/* Starts thread B on a CPU other than this one when there is one: a new
 * thread otherwise starts on its parent's CPU and waits there for the load
 * balancer (2 to 4 ms of a 12 ms diff). On an idle machine both threads
 * then stay where they are until the join (diff_unpin): left free, they
 * often end up sharing one CPU until the balancer separates them (started
 * from a shell, half the 720p diffs took 1.2 ms longer). When other work
 * is running the scheduler may move them, which pinning would forbid
 * (measured with one CPU busy: 1080p 13.6 ms free, 18.5 ms pinned). */
static int diff_start_b(diff_job_t *j, pthread_t *thread)
{
    pthread_attr_t attr;
    cpu_set_t one;
    int me = sched_getcpu(), rc;

    if (pthread_attr_init(&attr) != 0)
        return pthread_create(thread, NULL, diff_decode, &j->side[1]);
    if (me >= 0 && sched_getaffinity(0, sizeof j->cpus, &j->cpus) == 0 &&
        CPU_COUNT(&j->cpus) > 1) {
        CPU_ZERO(&one);
        for (int c = 0; c < CPU_SETSIZE; c++) {
            if (c != me && CPU_ISSET(c, &j->cpus)) {
                CPU_SET(c, &one);
                break;
            }
        }
        if (pthread_attr_setaffinity_np(&attr, sizeof one, &one) == 0) {
            CPU_ZERO(&one);
            CPU_SET(me, &one);
            j->free_b = !diff_machine_idle();
            j->pinned = !j->free_b &&
                        pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
        }
    }
    rc = pthread_create(thread, &attr, diff_decode, &j->side[1]);
    pthread_attr_destroy(&attr);
    return rc;
}

/* Gives this thread back every CPU of the process (the diff image is
 * encoded after the join). */
static void diff_unpin(diff_job_t *j)
{
    if (j->pinned) {
        pthread_setaffinity_np(pthread_self(), sizeof j->cpus, &j->cpus);
        j->pinned = 0;
    }
}

static void diff_side_report(rf_diffstream_side_t *to, const diff_side_t *s)
{
    to->path = s->path;
    to->st = s->st;
    to->err = s->err;
    to->no_memory = s->no_memory;
    to->width = s->img.width;
    to->height = s->img.height;
    to->info = s->img.info;
}

rf_diffstream_status_t rf_diffstream_files(rf_diffstream_t *ds, const char *a_path,
                                           const char *b_path, const rf_diffstream_options_t *o)
{
    diff_job_t job;
    diff_side_t *a, *b;
    pthread_t thread;
    int threaded;

    memset(ds, 0, sizeof *ds);
    memset(&job, 0, sizeof job);
    pthread_mutex_init(&job.lock, NULL);
    pthread_cond_init(&job.wake[0], NULL);
    pthread_cond_init(&job.wake[1], NULL);
    job.o = o->diff;
    job.want_image = o->want_image;
    job.ring_rows = o->ring_rows;
    job.side[0].path = a_path;
    job.side[1].path = b_path;
    for (int i = 0; i < 2; i++) {
        job.side[i].job = &job;
        job.side[i].index = i;
    }
    a = &job.side[0];
    b = &job.side[1];
    /* set before thread B reads it: rings need the two threads */
    job.use_ring = 1;
    threaded = diff_start_b(&job, &thread) == 0;
    if (!threaded)
        job.use_ring = 0;   /* B has not started: nothing read it yet */
    diff_decode(a);
    if (threaded)
        pthread_join(thread, NULL);
    else
        diff_decode(b);
    diff_unpin(&job);

    diff_side_report(&ds->side[0], a);
    diff_side_report(&ds->side[1], b);
    if (a->st != RF_PNG_SUCCESS || b->st != RF_PNG_SUCCESS)
        ds->status = RF_DIFFSTREAM_UNREADABLE;
    else if (a->img.width != b->img.width || a->img.height != b->img.height)
        ds->status = RF_DIFFSTREAM_SIZE;
    else if (job.failed || !atomic_load(&job.started))
        ds->status = RF_DIFFSTREAM_NO_MEMORY;
    else {
        rf_diff_end(&job.d, &ds->diff);
        ds->status = RF_DIFFSTREAM_COMPARED;
        ds->image = job.image;
        job.image = NULL;
    }
    free(job.image);
    rf_png_rgba_destroy(&a->img);
    rf_png_rgba_destroy(&b->img);
    pthread_cond_destroy(&job.wake[0]);
    pthread_cond_destroy(&job.wake[1]);
    pthread_mutex_destroy(&job.lock);
    return ds->status;
}

/* ------------------------------------------------- a file against a frame */

/* What the file's decode callbacks need. */
typedef struct frame_sink {
    const rf_png_frame_t *frame;   /* image b, cairo ARGB32 */
    uint8_t *golden, *actual;      /* the two images as straight RGBA */
    rf_diffstream_side_t *side;    /* the file's */
    int size_mismatch;
    rf_diff_t d;
} frame_sink_t;

static int frame_header(void *ctx, const rf_png_info_t *info)
{
    frame_sink_t *s = ctx;
    s->side->width = info->width;
    s->side->height = info->height;
    s->side->info = *info;
    if (info->width != s->frame->width || info->height != s->frame->height) {
        s->size_mismatch = 1;
        return 1;
    }
    return 0;
}

/* A row of the file arrives: the frame's row is converted beside it and
 * the differ compares every row whose neighbourhood is now complete. */
static int frame_row(void *ctx, uint32_t y, const uint8_t *rgba)
{
    frame_sink_t *s = ctx;
    const rf_png_frame_t *f = s->frame;
    size_t row = (size_t)f->width * 4;
    rf_png_row_to_rgba(s->actual + (size_t)y * row,
                       (const uint32_t *)(const void *)((const unsigned char *)f->pixels +
                                                        (size_t)y * f->stride),
                       f->width);
    memcpy(s->golden + (size_t)y * row, rgba, row);
    rf_diff_feed(&s->d, y + 1);
    return 0;
}

rf_diffstream_status_t rf_diffstream_file_frame(rf_diffstream_t *ds, const char *path,
                                                const rf_png_frame_t *frame, uint8_t *golden,
                                                uint8_t *actual, const rf_diff_options_t *o)
{
    frame_sink_t s;
    rf_png_status_t st;

    memset(ds, 0, sizeof *ds);
    ds->side[0].path = path;
    ds->side[1].width = frame->width;
    ds->side[1].height = frame->height;
    s.frame = frame;
    s.golden = golden;
    s.actual = actual;
    s.side = &ds->side[0];
    s.size_mismatch = 0;
    /* the file first: the diff image is a faded copy of it, and the
     * alternative color marks pixels where the frame is darker */
    rf_diff_begin(&s.d, golden, actual, NULL, frame->width, frame->height, o);
    st = rf_png_decode_path(path, frame_header, frame_row, &s, &ds->side[0].err);
    ds->side[0].st = st;
    if (st == RF_PNG_SUCCESS) {
        rf_diff_end(&s.d, &ds->diff);
        ds->status = RF_DIFFSTREAM_COMPARED;
    } else if (st == RF_PNG_STOPPED && s.size_mismatch) {
        ds->side[0].st = RF_PNG_SUCCESS;   /* its header was read */
        ds->status = RF_DIFFSTREAM_SIZE;
    } else {
        ds->status = RF_DIFFSTREAM_UNREADABLE;
    }
    return ds->status;
}

void rf_diffstream_destroy(rf_diffstream_t *ds)
{
    if (ds == NULL)
        return;
    free(ds->image);
    ds->image = NULL;
}
