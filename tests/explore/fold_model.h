/* Part B's front ends, for main.c: the count models (fold_model.c) and
 * the memory model's litmus tests (litmus.c). */
#ifndef FOLD_TESTS_EXPLORE_FOLD_MODEL_H
#define FOLD_TESTS_EXPLORE_FOLD_MODEL_H

int fold_main(int argc, char **argv);
int litmus_main(int argc, char **argv);

#endif
