/* Part B's front end (fold_model.c), for main.c. */
#ifndef FOLD_TESTS_EXPLORE_FOLD_MODEL_H
#define FOLD_TESTS_EXPLORE_FOLD_MODEL_H

int fold_main(int argc, char **argv);

#endif
