/* Synchronous IPC, the user's view (the kernel's: ipc/ipc.h). seL4's
 * model and names: a process holds handles (small integers naming kernel
 * objects, with rights and a badge); an endpoint carries messages from
 * senders to receivers, one at a time, with no buffering in the kernel;
 * a notification is a word of bits that `signal` ORs in and `wait` takes.
 *
 * A message is a tag and three words, passed in registers, plus an
 * optional payload of up to IPC_BUF_MAX bytes copied from the sender's
 * buffer to the receiver's. The calls (numbers in uapi/syscall.h):
 *
 *   send(h, tag, w0, w1, w2, buf)        block until a receiver takes it
 *   call(h, tag, w0, w1, w2, buf)        send, then wait for the reply;
 *                                        the reply lands in the same
 *                                        registers and buf
 *   recv(h, -, -, -, -, buf)             wait for a message
 *   reply(tag, w0, w1, w2, buf)          answer the last call received
 *                                        (a one-shot reply capability)
 *   reply_recv(h, tag, w0, w1, w2, buf)  reply, then recv: a server's loop
 *
 * Arguments go in rdi, rsi, rdx, r10, r8, r9 as for every call (buf is
 * always the sixth, r9; reply takes no handle). A call,
 * recv or reply_recv returns 0 in rax and the message in registers:
 * rdi = the badge of the sender's handle (0 for a reply), rsi = the tag,
 * rdx, r10, r8 = the three words; buf (if not NULL) gets the payload, so
 * it must have room for IPC_BUF_MAX bytes. On failure rax is -errno and
 * the other registers are as they were, except for -EFAULT and -EMFILE on
 * a receive, when the message has arrived all the same:
 *   -EBADF    no such handle, or a handle of another kind
 *   -EPERM    the handle lacks the right (send, recv, grant, ...)
 *   -EINVAL   a bad tag (payload too long, unknown bits)
 *   -EFAULT   buf is not readable (send) or writable (receive): for a
 *             receive the words and badge have arrived all the same
 *   -EPIPE    the endpoint has no receiver left (every handle that could
 *             recv on it is closed, e.g. its server died), or the server
 *             died before replying
 *   -ESRCH    reply with no caller waiting (none, or it died)
 *   -EINTR    the process was killed while it waited
 *   -EMFILE   a granted handle found no free slot (the message arrives
 *             without it) */
#ifndef FOLD_UAPI_IPC_H
#define FOLD_UAPI_IPC_H

#define IPC_WORDS      3          /* message words besides the tag */
#define IPC_BUF_MAX    256        /* payload bytes */
#define HANDLE_MAX     32         /* handles per process: 0..31 */

/* The tag: bits 0-8 the payload length, bit 15 a granted handle (w2 holds
 * the sender's handle number; the receiver finds its own number for the
 * same object there), bits 16-63 a label the kernel passes untouched. */
#define IPC_TAG_LEN_MASK  0x1ffUL
#define IPC_TAG_GRANT     (1UL << 15)
#define IPC_TAG_LABEL_SHIFT 16
#define IPC_TAG(label, len) (((unsigned long)(label) << IPC_TAG_LABEL_SHIFT) | (len))
#define IPC_TAG_LABEL(tag) ((unsigned long)(tag) >> IPC_TAG_LABEL_SHIFT)
#define IPC_TAG_LEN(tag)   ((unsigned long)(tag) & IPC_TAG_LEN_MASK)

/* Rights of a handle. An endpoint made by endpoint_create() has SEND,
 * RECV and GRANT; a notification SIGNAL and WAIT. handle_mint() makes a
 * copy with fewer rights and, from an unbadged handle, a badge. */
#define RIGHT_SEND    (1U << 0)   /* send, call */
#define RIGHT_RECV    (1U << 1)   /* recv, reply_recv */
#define RIGHT_GRANT   (1U << 2)   /* pass a handle in a message */
#define RIGHT_SIGNAL  (1U << 3)
#define RIGHT_WAIT    (1U << 4)
#define RIGHTS_ALL    0x1fU

/* Notifications: 32 bits. signal(h, bits) ORs bits and the handle's badge
 * in; wait(h) returns them (> 0) and clears them, blocking while none is
 * set. One waiter at a time (a second gets -EBUSY). */
#define NOTIFY_BITS   32

#endif
