// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * df_symbolic IN OUT: a copy of the shared library IN whose calls of its
 * own exported functions bind inside it, as if it had been linked with
 * -Bsymbolic-functions, which Ubuntu links librdmacm with (issue 26 item
 * 9): DF_SYMBOLIC set in its DT_FLAGS, so that the dynamic linker looks
 * up the library's own references in the library first.  For the calls
 * librdmacm makes of its own functions (rdma_destroy_ep() of
 * rdma_destroy_id(), which frees a synchronous id's channel with
 * rdma_destroy_event_channel()) the effect is the linker option's: a
 * library preloaded in front of librdmacm never sees them.
 *
 * Debian's librdmacm.so.1 has a DT_FLAGS entry (BIND_NOW); a library
 * without one gets DT_SYMBOLIC in a spare DT_NULL slot, or is refused.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int symcopy_fail(const char *what, const char *path)
{
	fprintf(stderr, "df_symbolic: %s: %s\n", path, what);
	return 1;
}

/* The dynamic section of the ELF64 image @buf of @size bytes, or NULL. */
static Elf64_Dyn *symcopy_dynamic(unsigned char *buf, size_t size, size_t *n)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	Elf64_Phdr *ph;
	int i;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_type != ET_DYN ||
	    eh->e_phentsize != sizeof(*ph) ||
	    eh->e_phoff + (size_t)eh->e_phnum * sizeof(*ph) > size)
		return NULL;
	ph = (Elf64_Phdr *)(buf + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_DYNAMIC)
			continue;
		if (ph[i].p_offset + ph[i].p_filesz > size)
			return NULL;
		*n = ph[i].p_filesz / sizeof(Elf64_Dyn);
		return (Elf64_Dyn *)(buf + ph[i].p_offset);
	}
	return NULL;
}

/* Set DF_SYMBOLIC (or add DT_SYMBOLIC).  Return: 0, or -1 if no room. */
static int symcopy_set(Elf64_Dyn *dyn, size_t n)
{
	size_t i;

	for (i = 0; i < n && dyn[i].d_tag != DT_NULL; i++) {
		if (dyn[i].d_tag == DT_FLAGS) {
			dyn[i].d_un.d_val |= DF_SYMBOLIC;
			return 0;
		}
	}
	/* The first DT_NULL ends the section; one after it is spare. */
	if (i + 1 >= n || dyn[i + 1].d_tag != DT_NULL)
		return -1;
	dyn[i].d_tag = DT_SYMBOLIC;
	dyn[i].d_un.d_val = 0;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char *buf;
	Elf64_Dyn *dyn;
	size_t size, n;
	long len;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: df_symbolic IN OUT\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET))
		return symcopy_fail("cannot read", argv[1]);
	size = len;
	buf = malloc(size);
	if (!buf || fread(buf, 1, size, f) != size)
		return symcopy_fail("cannot read", argv[1]);
	fclose(f);
	dyn = symcopy_dynamic(buf, size, &n);
	if (!dyn)
		return symcopy_fail("not an ELF64 shared library", argv[1]);
	if (symcopy_set(dyn, n))
		return symcopy_fail("no DT_FLAGS and no spare DT_NULL", argv[1]);
	f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, size, f) != size || fclose(f))
		return symcopy_fail("cannot write", argv[2]);
	free(buf);
	return 0;
}
