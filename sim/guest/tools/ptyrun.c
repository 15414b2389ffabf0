// SPDX-License-Identifier: Apache-2.0
/*
 * ptyrun CMD [ARG...]: run CMD on a pseudo-terminal and copy what it writes
 * there to stdout; exit with CMD's status. For scenarios that check output a
 * tool prints only to a terminal (devlink dev flash's percentages).
 */
#include <errno.h>
#include <pty.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[4096];
	int fd, status;
	ssize_t n;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: ptyrun CMD [ARG...]\n");
		return 2;
	}
	pid = forkpty(&fd, NULL, NULL, NULL);
	if (pid < 0) {
		perror("ptyrun: forkpty");
		return 127;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror("ptyrun: exec");
		_exit(127);
	}
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)	/* EIO: the child closed the terminal */
			break;
		if (write(STDOUT_FILENO, buf, (size_t)n) != n)
			break;
	}
	if (waitpid(pid, &status, 0) < 0)
		return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
