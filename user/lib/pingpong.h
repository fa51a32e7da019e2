/* What ping and pong (user/ping.c, user/pong.c) agree on. */
#ifndef FOLD_USER_PINGPONG_H
#define FOLD_USER_PINGPONG_H

#define PINGPONG_EP  0    /* the endpoint's handle: the first one spawn passes */
#define PONG_ECHO    1    /* labels: echo, words plus one */
#define PONG_BADGE   2    /* echo, and w2 = the caller's badge */
#define PONG_QUIT    3    /* answer, then exit */
#endif
