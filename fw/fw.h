/* Build identity of the firmware image (fw/version.c). */
#ifndef FW_FW_H
#define FW_FW_H

extern const char fw_version[];    /* git describe --always --dirty at build time */
extern const char fw_build_date[]; /* UTC, when the image was linked */

/* The boot banner (also printed by 'version'). */
void fw_banner(void);

#endif
